// Directed runs from the driver: run_directed runs a batch of seeds with a ForceDirective and/or
// extra collectors and hands each run record to the caller (SCURF's directed exploration reads
// its spectra summary there); confirm forces one suspected pattern over M seeds and says whether
// it reproduces the original failure ("forcing #1 fails 20/20 (baseline 2.3%)") or is refuted.
// Rules: docs/forcing.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctrlsched/force_directive.h"
#include "localize/counterfactual.h"
#include "localize/exploration_association.h"
#include "localize/verdict.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/run_spec.h"
#include "ctrlsched/schedule.h"
#include "report/grouping.h"
#include "runs/outcome.h"
#include "runs/run_result.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

inline constexpr std::uint64_t kDefaultConfirmSeeds = 20;

struct DirectedBatch {
  RunSpec base;                  // strategy and settings; runs seeds base.seed .. base.seed+seeds-1
  std::uint64_t seeds = kDefaultConfirmSeeds;
  ForceDirective directive{};    // kind None: plain runs (e.g. only to collect)
  std::uint32_t collectors = 0;  // extra kCollect* bits for every run
  unsigned jobs = 1;
  double timeout_seconds = 10.0;
  bool keep_failing_schedules = false;  // fill DirectedRun::schedule for failing runs
  bool keep_incomplete_schedules = false;  // ... and for runs where the directive did not complete
  // A directive in the failing run's context (ForceDirective::context): the reference run's
  // decisions, encoded (decision.h), given to every run as its input log.
  std::vector<std::uint8_t> context_log;
};

struct DirectedRun {
  RunResult result;
  ForceOutcome force{};              // RunRecord::force of the run
  std::optional<Schedule> schedule;  // failing runs, when asked and the log was complete
  // The thread that failed (assertion, fatal signal, non-zero exit), for the rule "failed after
  // its own steps" (tally_confirmation).
  std::optional<std::uint32_t> failing_thread;
};

// Called once per finished run, in completion order, while its record is still mapped.
using DirectedRecordFn = std::function<void(std::uint64_t index, const RunRecord& record, const RunResult& result)>;

// Runs the batch through a WorkerPool; results in seed order. PCT with pct_steps 0 is calibrated
// first. `target_name` names the test in errors. Throws DriverError like seeds mode does.
std::vector<DirectedRun> run_directed(const LaunchTarget& target, const DirectedBatch& batch,
                                      const ClassifyContext& context, const std::string& target_name,
                                      const DirectedRecordFn& on_record = {});

// The failure a pattern is suspected to cause: a forced run "fails the same way" when its
// outcome kind and failure signature (kind + site, failure_details.h) are equal to these.
struct FailureIdentity {
  OutcomeKind kind = OutcomeKind::Assertion;
  std::string signature;
};
FailureIdentity failure_identity(const RunResult& failing_run);
bool same_failure(const RunResult& run, const FailureIdentity& original);

struct ConfirmRequest {
  DirectedBatch batch;           // directive + seeds (default 20 from base.seed)
  FailureIdentity original;
  double baseline_rate = 0;      // failing fraction of the plain runs, 0..1
  TestCommand test;              // for the replay command
  std::optional<std::filesystem::path> save_dir;  // where the forced failing schedule goes
  // No failure was seen without forcing (a ConSeq prediction from a passing run): the failure of
  // the lowest failing forced seed becomes `original`, and the others are compared with it.
  bool adopt_first_failure = false;
  // Other bindings of the same pattern (reference_binding.h), tried in order, each over the same
  // seeds, while the order completed in fewer than kMinCompletedRuns runs.
  std::vector<ForceDirective> fallbacks;
  // Names a step the confirmation adds itself (a lock call, "Held before its lock"), like
  // step_names; empty: the step's site in hex.
  std::function<std::string(const ForceStep&)> name_step;
  // Tried when none of the bindings above confirmed the pattern: the pattern forced in the failing
  // run's context (in_context.h, docs/forcing.md "In the failing run's context"): `directive` is
  // the first binding with ForceDirective::context set, `log` the reference run's decisions,
  // `base` the reference run's spec with the continuation's strategy (its seed is the batch's).
  struct InContext {
    ForceDirective directive{};
    std::vector<std::uint8_t> log;
    RunSpec base;
    std::string note;  // "its first 812 steps replayed": what the context is
    // When the first step's thread held a lock there in the reference run: its call of that lock
    // (reference_binding.h, critical_section_entry), where the context is cut once more when the
    // opposite order cannot happen at the step because the other thread needs that lock. From
    // there the pattern is forced as it is, and its opposite with the lock call before the first
    // thread's steps (docs/forcing.md, "From the entry of the step's critical section").
    std::optional<ForceStep> entry;
    std::string entry_name;  // "lock a.c:30 producer"
    std::string entry_note;
  };
  std::optional<InContext> in_context;
  bool symptom = false;                 // never `confirmed` (symptoms.h)
  std::string symptom_reason;           // why it is one
  // The exploration saw the order in passing runs and in none of its failing runs: forced runs
  // that fail contradict what the order did when it happened on its own, so it is never
  // `confirmed` either (the holds, not the order, make them fail). The reason says so.
  bool passing_only = false;
  std::string passing_only_reason;
  std::vector<std::string> step_names;  // "W force.c:27 deposit" per step, for reasons
  // A confirmed pattern's opposite order is forced over the same seeds too (counterfactual.h);
  // if it fails as often, the verdict is inconclusive.
  bool counterfactual_control = false;
  // How often the plain runs had the order (Falcon's counts), when an analysis saw it: an order
  // associated with the failure is not refuted unless its opposite order failed the same way
  // (exploration_association.h).
  std::optional<ExplorationCounts> exploration;
};

// The opposite order of a confirmed pattern, forced over the same seeds (counterfactual.h).
struct CounterfactualResult {
  CounterfactualOutcome outcome = CounterfactualOutcome::NotRun;
  std::string order;               // "W a.c:30 → R a.c:26": the opposite order's steps
  std::uint64_t forced_runs = 0;   // of the binding the counts come from
  std::uint64_t completed = 0;     // the opposite order happened completely
  std::uint64_t failed = 0;        // of those, failed the same way as the original
  std::uint64_t failed_incomplete = 0;
  std::uint64_t failed_other = 0;
  // The runs where the opposite order did not complete, replayed traced (without_pattern.h):
  // those with no occurrence of the pattern at all, and of them the ones that failed the same
  // way. They count in the opposite's arm (counterfactual.h, "Failing without the pattern").
  std::uint64_t replayed_incomplete = 0;
  std::uint64_t without_pattern = 0;
  std::uint64_t without_pattern_failed = 0;
  double p_lower = 1;              // Fisher: P(opposite fails this seldom | equal rates); with the
                                   // control without the pattern, the larger of the two
  double p_without = 1;            // Fisher for the runs without the pattern (counterfactual.h)
  std::string binding;             // binding_text of the opposite directive used
  std::uint64_t attempt_runs = 0;  // forced runs over all bindings (and serial orders) tried
  std::string reason;              // unrealized: where it stalled
  double alpha = kCounterfactualAlpha;  // the test's level: kCounterfactualAlpha / (serial orders tried × looks)
  int looks = 1;                   // 2 when a second look over twice the seeds decided
};

// A confirmed finding that orders two locations (Locon's procedures II and III: two pairs that
// must happen together, a two-variable cause): one pair's order reversed, the other pair's kept,
// forced over the same seeds (coupled_halves.h). The pair is a needed part of the cause when that
// fails significantly less often than the finding.
struct HalfControl {
  std::uint16_t location = 0;      // the pair's ForceStep::location in the finding
  std::uint32_t first = 0;         // the pair's steps in the finding, in its order
  std::uint32_t second = 0;
  std::string order;               // the reversed order's steps, "W a.c:19 → R a.c:42 → ..."
  std::uint64_t forced_runs = 0;
  std::uint64_t completed = 0;     // the reversed order happened completely
  std::uint64_t failed = 0;        // of those, failed the same way
  // Of `completed` and `failed`, the runs where the reversed order itself happened, not counted
  // as completed for failing after the failing thread's own steps (tally_confirmation): a loop's
  // next iteration can fail that way with the pair reversed in the first.
  std::uint64_t completed_in_order = 0;
  std::uint64_t failed_in_order = 0;
  double p_lower = 1;              // one-sided Fisher: P(the reversed order fails this seldom | one rate)
  bool needed = false;             // realized, and p_lower < kCounterfactualAlpha
  // The reversed order happened in kMinCompletedRuns runs and they did not fail significantly less
  // often: the pair is not a part of the cause (coupled_halves.h), p_in_order the test.
  bool not_needed = false;
  double p_in_order = 1;
  std::string binding;
};

// A confirmed order's control that leans its way (the order fails more often than its opposite)
// without deciding, at a one-sided Fisher p below this, gets a second look over twice the seeds.
inline constexpr double kSecondLookBelow = 0.5;

struct ConfirmationResult {
  std::uint64_t forced_runs = 0;
  std::uint64_t requested_runs = 0;  // forced runs asked for; fewer than forced_runs when the
                                     // baseline needed more to confirm (forced_runs.h)
  std::uint64_t failed = 0;        // failed the same way as the original, with the order complete
  std::uint64_t failed_incomplete = 0;  // failed the same way before the forced order completed:
                                        // the holds, not the order, made it fail (not evidence)
  std::uint64_t failed_after_own_steps = 0;  // of `failed` and `completed`: the failing thread had
                                             // performed all its steps, and the run ended before
                                             // another thread's step (see tally_confirmation)
  std::uint64_t failed_other = 0;  // failed, but another way
  // Of failed_other: the order had completed and the program's own check failed (an assertion,
  // fatal signal or exit at another site), which a refutation must survive (verdict.h); the first
  // such run's failure signature, for the reason.
  std::uint64_t failed_other_completed = 0;
  std::string other_failure_signature;
  std::uint64_t completed = 0;     // the forced order happened completely
  std::uint64_t context_lost = 0;  // in context: runs whose replay ended before the cut (no evidence)
  std::string context_lost_what;   // the first such run's loss: "at step 45: recorded S2, ..." 
  std::string context;             // in context: the verdict's context ("seed 12 replayed up to ...")
  // When the context gave the verdict: what the pattern's own bindings had shown.
  struct Alone {
    Verdict verdict = Verdict::Unrealized;
    std::uint64_t completed = 0;
    std::uint64_t failed = 0;
    std::string reason;
  };
  std::optional<Alone> alone;
  double baseline_rate = 0;
  bool refuted = false;            // verdict == Refuted (kept for readers of the old field)
  Verdict verdict = Verdict::Unrealized;
  double p_above_baseline = 1;     // one-sided binomial tests (verdict.h)
  double p_below_cause = 1;
  std::string reason;              // unrealized: which thread never reached which step; symptom
  std::string binding;             // binding_text of the directive the verdict comes from
  std::vector<std::string> bindings_tried;  // every binding forced, in order
  std::uint64_t attempt_runs = 0;  // forced runs over all bindings tried
  std::optional<std::uint64_t> failing_seed;  // lowest seed that failed the same way
  std::string schedule_path;       // its saved schedule ("" if none or not saved)
  std::string replay_command;      // "ctrlsched replay --schedule <file> <test> <args>"
  std::string save_problem;        // why the schedule was not saved, if it was not
  CounterfactualResult counterfactual;  // the control of a confirmed pattern (outcome NotRun otherwise)
  // ConfirmRequest::in_context, when it was forced and did not give the verdict: its counts, the
  // opposite order's in the same context, and what they decide (in_context.h).
  struct InContextResult {
    std::string note;
    std::uint64_t forced_runs = 0;
    std::uint64_t context_lost = 0;  // runs whose replay of the context ended before the cut
    std::string context_lost_what;   // where the first of them left the failing run
    std::uint64_t completed = 0;
    std::uint64_t failed = 0;
    double p_above_baseline = 1;
    Verdict verdict = Verdict::Unrealized;  // what its counts alone would decide
    bool opposite_forced = false;
    std::uint64_t opposite_completed = 0;
    std::uint64_t opposite_failed = 0;
    double p_opposite = 1;
    std::string outcome;                   // in_context_outcome_name
  };
  std::optional<InContextResult> in_context;
  // Set when the exploration's association kept a refutation from standing
  // (exploration_association.h): the counts it rests on.
  std::optional<ExplorationCounts> exploration;
  // A confirmed two-location finding: each pair's own control (HalfControl).
  std::vector<HalfControl> halves;
  // Set when this pattern was confirmed as a needed pair of a confirmed two-location finding
  // (coupled_halves.h); `alone` then holds its verdict forced by itself.
  struct CoupledPart {
    std::string finding;             // the finding's steps, in its order
    std::string partner;             // the other pair's steps
    std::uint64_t finding_completed = 0;
    std::uint64_t finding_failed = 0;
    HalfControl control;             // this pair reversed, the partner kept
    std::string replay_command;      // the finding's forced failing run, "" if none was saved
  };
  std::optional<CoupledPart> coupled_part;
};

// The counts of a finished batch (pure; confirm() = run_directed + this + saving).
// A run that failed the same way before the order completed counts as completed and failed when
// at least one step happened and the failing thread is bound to a role all of whose steps were
// done: the order held as far as the run went, and the failure is that thread's own, after its
// part (an order violation's read, forced before the write, crashes before the write can come).
// Any other incomplete failure is `failed_incomplete`, no evidence.
// `directive`, if given, names the stalled step's thread in `reason`; `step_names` its access.
ConfirmationResult tally_confirmation(const std::vector<DirectedRun>& runs, const FailureIdentity& original,
                                      double baseline_rate, const ForceDirective* directive = nullptr,
                                      const std::vector<std::string>& step_names = {}, bool symptom = false);

// Applies the control's outcome: FailsAsOften makes a confirmed verdict inconclusive with the
// reason "the opposite order fails as often: ..."; Needed makes a refuted one inconclusive with
// the reason "needed, not sufficient: ..."; any other outcome leaves it (pure).
void apply_counterfactual(ConfirmationResult& c, CounterfactualResult counterfactual);

// A refuted pattern that the exploration associates with the failure, and whose opposite order
// never failed the same way, becomes inconclusive with the reason and the counts
// (exploration_association.h); any other result is left as it is (pure).
void apply_exploration(ConfirmationResult& c, const ExplorationCounts& exploration);

ConfirmationResult confirm(const LaunchTarget& target, const ConfirmRequest& request,
                           const ClassifyContext& context, const std::string& target_name);

// "forcing #1 fails 20/20 (baseline 2.3%)" or
// "forcing #2 refuted: forcing never fails (0/20, order achieved in 18)".
std::string render_confirmation(std::size_t rank, const ConfirmationResult& c);
// {"forced_runs", "failed", "failed_incomplete", "failed_other", "completed", "baseline_rate",
//  "refuted"[, "replay"]}
nlohmann::json confirmation_json(const ConfirmationResult& c);

}  // namespace ctrlsched::driver

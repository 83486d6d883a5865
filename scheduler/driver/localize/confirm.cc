// Directed batches and confirmation of suspected patterns (see confirm.h, docs/forcing.md).
#include "localize/confirm.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>

#include "localize/coupled_halves.h"
#include "localize/forced_runs.h"
#include "localize/in_context.h"
#include "localize/pattern_directives.h"
#include "localize/reference_binding.h"
#include "localize/without_pattern.h"
#include "report/shell_quote.h"
#include "runs/portfolio.h"
#include "runs/run_collect.h"
#include "runs/run_record_region.h"
#include "runs/schedule_store.h"

namespace ctrlsched::driver {
namespace {

// "2.3%", "0%", "100%": one decimal below 10%, none above, none for whole numbers.
std::string percent(double rate) {
  const double p = std::clamp(rate, 0.0, 1.0) * 100.0;
  char text[32];
  if (p == static_cast<double>(static_cast<long>(p)) || p >= 10.0) {
    std::snprintf(text, sizeof text, "%.0f%%", p);
  } else {
    std::snprintf(text, sizeof text, "%.1f%%", p);
  }
  return text;
}

// A failure of the program's own: what a refutation must not ignore. Deadlocks, hangs and
// timeouts are left out: a forced run's holds can cause them (or the wall clock), not the order.
bool program_failed(OutcomeKind kind) {
  return kind == OutcomeKind::Assertion || kind == OutcomeKind::Signal || kind == OutcomeKind::Exit;
}

// "assertion|a.c:60|serve" -> "assertion at a.c:60 in serve", "signal|SIGSEGV|where" -> "SIGSEGV at
// where" (failure_details.cc); other signatures as they are.
std::string signature_text(const std::string& signature) {
  const std::size_t first = signature.find('|');
  const std::size_t second = first == std::string::npos ? first : signature.find('|', first + 1);
  if (second == std::string::npos) return signature;
  const std::string kind = signature.substr(0, first);
  std::string middle = signature.substr(first + 1, second - first - 1);
  if (kind == "assertion") middle = middle.substr(middle.rfind('/') + 1);  // assert's __FILE__ may be a full path
  const std::string last = signature.substr(second + 1);
  if (kind == "signal") return middle + " at " + last;
  return kind + " at " + middle + (last.empty() ? "" : " in " + last);
}

std::string other_failures(std::uint64_t n) {
  return std::to_string(n) + (n == 1 ? " other failure" : " other failures");
}

std::string forced_schedule_name(std::uint64_t seed, std::uint64_t hash) {
  return "forced-" + std::to_string(seed) + "-" + format_hash(hash) + ".sched";
}

}  // namespace

std::vector<DirectedRun> run_directed(const LaunchTarget& target, const DirectedBatch& batch,
                                      const ClassifyContext& context, const std::string& target_name,
                                      const DirectedRecordFn& on_record) {
  const RunSpec base = calibrated_spec(target, batch.base, batch.timeout_seconds, target_name);
  std::vector<std::optional<DirectedRun>> slots(static_cast<std::size_t>(batch.seeds));
  PoolOptions options;
  options.jobs = static_cast<unsigned>(std::clamp<std::uint64_t>(batch.jobs, 1, std::max<std::uint64_t>(batch.seeds, 1)));
  options.timeout = std::chrono::duration<double>(batch.timeout_seconds);
  options.capture_output = true;
  WorkerPool pool(target, options);
  pool.run(
      batch.seeds,
      [&](std::uint64_t index) {
        RunSpec spec = base;
        spec.seed = base.seed + index;
        RunJob job{run_config_for(spec), batch.directive.context != 0 ? batch.context_log : std::vector<std::uint8_t>{}};
        job.config.collectors |= batch.collectors;
        job.config.force = batch.directive;
        return job;
      },
      [&](const FinishedRun& run) {
        RunSpec spec = base;
        spec.seed = base.seed + run.index;
        DirectedRun directed;
        directed.result = collect_result(run, spec, context, target_name);
        const RunRecord& record = run.region.record();
        directed.force = record.force;
        const OutcomeKind kind = directed.result.kind;
        if (kind == OutcomeKind::Assertion || kind == OutcomeKind::Signal || kind == OutcomeKind::Exit) {
          directed.failing_thread = record.failure.thread;
        }
        if ((batch.keep_failing_schedules && directed.result.failed()) ||
            (batch.keep_incomplete_schedules && directed.force.completed == 0)) {
          std::string problem;
          directed.schedule = recorded_schedule(run.region, directed.result.handle, &problem);
        }
        if (on_record) on_record(run.index, record, directed.result);
        slots[static_cast<std::size_t>(run.index)] = std::move(directed);
        return true;
      });
  std::vector<DirectedRun> runs;
  runs.reserve(slots.size());
  for (auto& slot : slots) runs.push_back(std::move(*slot));
  return runs;
}

FailureIdentity failure_identity(const RunResult& failing_run) {
  FailureIdentity id;
  id.kind = failing_run.kind;
  id.signature = failing_run.failure ? failing_run.failure->signature : std::string(to_string(failing_run.kind));
  return id;
}

bool same_failure(const RunResult& run, const FailureIdentity& original) {
  if (!run.failed() || run.kind != original.kind) return false;
  return failure_identity(run).signature == original.signature;
}

namespace {

// "T2 never reached step 3 (W a.c:30 deposit) in 18/20 forced runs": the step most incomplete
// runs stopped before, and the thread its role was bound to there.
std::string stall_reason(const std::vector<DirectedRun>& runs, const ForceDirective* directive,
                         const std::vector<std::string>& step_names) {
  std::array<std::uint64_t, kMaxForceSteps + 1> stopped{};
  std::uint64_t incomplete = 0;
  for (const DirectedRun& run : runs) {
    if (run.force.completed) continue;
    ++incomplete;
    ++stopped[std::min<std::uint32_t>(run.force.steps_done, kMaxForceSteps)];
  }
  if (incomplete == 0) return "";
  // Most incomplete runs had their read step's location written first (forcing_strategy.cc, rule 7).
  std::uint64_t broken = 0;
  const DirectedRun* first_broken = nullptr;
  for (const DirectedRun& run : runs) {
    if (run.force.completed || run.force.read_from_broken_step == 0) continue;
    if (broken++ == 0) first_broken = &run;
  }
  if (2 * broken > incomplete) {
    const std::uint32_t read = first_broken->force.read_from_broken_step;
    const std::uint32_t writer = first_broken->force.read_from_broken_thread;
    std::string text = (writer == 0 ? std::string("another thread") : "T" + std::to_string(writer - 1)) +
                       " wrote the location again before step " + std::to_string(read + 1);
    if (read < step_names.size() && !step_names[read].empty()) text += " (" + step_names[read] + ")";
    text += " could read step " + std::to_string(read) + "'s write, in " + std::to_string(broken) + "/" +
            std::to_string(runs.size()) + " forced runs";
    return text;
  }
  const auto step = static_cast<std::uint32_t>(std::max_element(stopped.begin(), stopped.end()) - stopped.begin());
  std::string who = "no thread";
  if (directive != nullptr && step < directive->count) {
    const std::uint8_t role = directive->steps[step].role;
    for (const DirectedRun& run : runs) {
      if (!run.force.completed && run.force.steps_done == step && role < kMaxForceRoles &&
          run.force.role_thread[role] != 0) {
        who = "T" + std::to_string(run.force.role_thread[role] - 1);
        break;
      }
    }
  }
  std::string text = who == "no thread" ? "no thread performed step " + std::to_string(step + 1)
                                         : who + " never reached step " + std::to_string(step + 1);
  if (step < step_names.size() && !step_names[step].empty()) text += " (" + step_names[step] + ")";
  text += " in " + std::to_string(stopped[step]) + "/" + std::to_string(runs.size()) + " forced runs";
  return text;
}

}  // namespace

namespace {

std::string p_value_text(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", p);
  return text;
}

// The names of a directive's steps in `order` (counterfactual_order), and them joined by arrows.
std::vector<std::string> names_in_order(const std::vector<std::uint32_t>& order, const std::vector<std::string>& step_names) {
  std::vector<std::string> names;
  for (const std::uint32_t i : order) names.push_back(i < step_names.size() ? step_names[i] : "step " + std::to_string(i + 1));
  return names;
}

std::string arrows(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " → ") + name;
  return text;
}

// The attempt "Held before its lock" adds (docs/forcing.md): the directive, its step names, and
// what its binding says.
struct LockRetry {
  ForceDirective directive{};
  std::vector<std::string> names;
  std::string note;
};

// From the first of `runs` (seed order) whose forcing had to let a lock owner through to a later
// step (ForceOutcome::starved_step, starved_lock_site), the directive with that step's thread
// held at the call that took the lock; nullopt when no run did or there is no room.
std::optional<LockRetry> lock_call_retry(const ForceDirective& directive, const std::vector<DirectedRun>& runs,
                                         const std::vector<std::string>& names,
                                         const std::function<std::string(const ForceStep&)>& name_step) {
  const auto starved = std::find_if(runs.begin(), runs.end(), [](const DirectedRun& r) { return r.force.starved_lock_site != 0; });
  if (starved == runs.end()) return std::nullopt;
  const std::uint32_t step = starved->force.starved_step;
  std::optional<ForceDirective> held = held_before_lock(directive, step, starved->force.starved_lock_site);
  if (!held) return std::nullopt;
  LockRetry retry;
  retry.directive = *held;
  const ForceStep& lock = held->steps[step];
  char hex[32];
  std::snprintf(hex, sizeof hex, "lock 0x%llx", static_cast<unsigned long long>(lock.site));
  const std::string lock_name = name_step ? name_step(lock) : std::string(hex);
  retry.names = names;
  retry.names.insert(retry.names.begin() + std::min<std::ptrdiff_t>(step, static_cast<std::ptrdiff_t>(names.size())),
                     lock_name);
  retry.note = ", role " + std::to_string(lock.role + 1) + " held at its " + lock_name +
               " before it takes the lock (held at its step, inside that lock, it starved the thread of an " +
               "earlier step)";
  return retry;
}

// Some run stopped because a write reached a read step's location before the read
// (forcing_strategy.cc, rule 7): worth one more try with the partner held only at the location.
bool some_read_step_broken(const std::vector<DirectedRun>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const DirectedRun& run) {
    return !run.force.completed && run.force.read_from_broken_step != 0;
  });
}

// The failing thread had done every step of its role, at least one step was done, and another
// role's step was still to come when the run ended: the order held as far as the run went.
bool failed_after_own_steps(const DirectedRun& run, const ForceDirective* directive) {
  if (directive == nullptr || run.force.completed || run.force.steps_done == 0 || !run.failing_thread) return false;
  const std::uint32_t count = std::min<std::uint32_t>(directive->count, kMaxForceSteps);
  for (std::uint8_t role = 0; role < kMaxForceRoles; ++role) {
    if (run.force.role_thread[role] != *run.failing_thread + 1) continue;
    for (std::uint32_t i = run.force.steps_done; i < count; ++i) {
      if (directive->steps[i].role == role) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

ConfirmationResult tally_confirmation(const std::vector<DirectedRun>& runs, const FailureIdentity& original,
                                      double baseline_rate, const ForceDirective* directive,
                                      const std::vector<std::string>& step_names, bool symptom) {
  ConfirmationResult c;
  c.baseline_rate = baseline_rate;
  const bool in_context = directive != nullptr && directive->context != 0;
  for (const DirectedRun& run : runs) {
    ++c.forced_runs;
    // A run whose replay of the failing run ended before the pattern's moment is no evidence
    // about the pattern in that context.
    if (in_context && run.force.context_reached == 0) {
      if (c.context_lost++ == 0) {
        c.context_lost_what = "at step " + std::to_string(run.force.context_step) + ": " +
                              std::string(run.force.context_lost_what,
                                          strnlen(run.force.context_lost_what, sizeof run.force.context_lost_what));
      }
      continue;
    }
    if (run.force.completed) ++c.completed;
    if (same_failure(run.result, original)) {
      if (failed_after_own_steps(run, directive)) {
        ++c.completed;
        ++c.failed_after_own_steps;
      } else if (!run.force.completed) {
        // A run that failed before the order was complete shows that holding a thread can make
        // the test fail (e.g. main held before it publishes), not that this order does.
        ++c.failed_incomplete;
        continue;
      }
      ++c.failed;
      if (!c.failing_seed) c.failing_seed = run.result.seed;  // runs are in seed order
    } else if (run.result.failed()) {
      ++c.failed_other;
      if (run.force.completed && program_failed(run.result.kind)) {
        if (c.failed_other_completed++ == 0) c.other_failure_signature = failure_identity(run.result).signature;
      }
    }
  }
  const VerdictDecision d =
      decide_verdict({c.completed, c.failed, baseline_rate, symptom, c.failed_incomplete, c.failed_other_completed});
  c.verdict = d.verdict;
  c.p_above_baseline = d.p_above_baseline;
  c.p_below_cause = d.p_below_cause;
  c.refuted = c.verdict == Verdict::Refuted;
  c.attempt_runs = c.forced_runs;
  if (directive != nullptr) c.binding = binding_text(*directive);
  if (c.verdict == Verdict::Unrealized) c.reason = stall_reason(runs, directive, step_names);
  if (c.verdict == Verdict::Inconclusive && d.p_below_cause < kVerdictAlpha && d.p_above_baseline >= kVerdictAlpha &&
      d.p_below_cause_counting_before >= kVerdictAlpha) {
    c.reason = "not refuted: " + std::to_string(c.failed_incomplete) +
               " runs failed this way before the order completed, so the completed runs are those the failure " +
               "spared; counted as failures of the order, " + std::to_string(c.failed + c.failed_incomplete) + "/" +
               std::to_string(c.completed + c.failed_incomplete) + " is no evidence against it (P = " +
               p_value_text(d.p_below_cause_counting_before) + ")";
  } else if (c.verdict == Verdict::Inconclusive && d.p_below_cause < kVerdictAlpha && d.p_above_baseline >= kVerdictAlpha &&
             d.p_below_cause_counting_otherwise >= kVerdictAlpha) {
    const std::uint64_t failing = c.failed + std::min(c.failed_other_completed, c.completed - c.failed);
    c.reason = "not refuted: " + std::to_string(c.failed_other_completed) + " of the " + std::to_string(c.completed) +
               " runs where the order completed failed another way (" + signature_text(c.other_failure_signature) +
               "), so the order is not shown harmless; counted as failures, " + std::to_string(failing) + "/" +
               std::to_string(c.completed) + " is no evidence against it (P = " +
               p_value_text(d.p_below_cause_counting_otherwise) + ")";
  }
  return c;
}

namespace {

// Forces the opposite order (counterfactual.h) of the binding the verdict came from, then, while
// it does not complete in kMinCompletedRuns runs, of the later (looser) bindings, over the same
// seeds; counts only runs where the opposite order completed, failing as `original`. A triple has
// two serial orders (counterfactual_orders): the second is forced only when the first does not
// decide for the order; the counts shown are those of the order that decided, else the first's.
CounterfactualResult force_counterfactual(const LaunchTarget& target, DirectedBatch batch,
                                          const std::vector<ForceDirective>& attempts, std::size_t chosen,
                                          const std::vector<std::string>& step_names,
                                          const FailureIdentity& original, const ConfirmRequest& request,
                                          const ConfirmationResult& forced, const ClassifyContext& context,
                                          const std::string& target_name, std::size_t looks) {
  const std::vector<std::vector<std::uint32_t>> orders = counterfactual_orders(attempts[chosen]);
  if (orders.empty()) return {};  // NotRun: a single role has no opposite order
  const bool refuted = forced.verdict == Verdict::Refuted;
  // A confirmation's control replays the runs where the opposite order did not complete
  // (without_pattern.h): their schedules are kept.
  batch.keep_failing_schedules = false;
  batch.keep_incomplete_schedules = !refuted;
  std::optional<CounterfactualResult> first;
  std::uint64_t attempt_runs = 0;
  for (const std::vector<std::uint32_t>& order : orders) {
    CounterfactualResult r;
    const std::vector<std::string> names = names_in_order(order, step_names);
    r.order = arrows(names);
    bool realized = false;
    for (std::size_t a = chosen; a < attempts.size() && !realized; ++a) {
      if (attempts[a].count != attempts[chosen].count) continue;  // the order in context: other steps
      std::optional<ForceDirective> opposite = counterfactual_directive(attempts[a], order);
      if (!opposite) continue;
      // As for the pattern (confirm): a binding whose read step a write reached first is tried
      // once more with the partner held only at the location, before the looser bindings.
      for (bool retry = false;; retry = true) {
        batch.directive = *opposite;
        const std::vector<DirectedRun> runs = run_directed(target, batch, context, target_name);
        const ConfirmationResult t = tally_confirmation(runs, original, request.baseline_rate, &*opposite, names);
        attempt_runs += t.forced_runs;
        realized = t.completed >= kMinCompletedRuns;
        if ((a == chosen && !retry) || realized) {
          r.forced_runs = t.forced_runs;
          r.completed = t.completed;
          r.failed = t.failed;
          r.failed_incomplete = t.failed_incomplete;
          r.failed_other = t.failed_other;
          r.binding = t.binding;
          r.reason = t.reason;
          r.replayed_incomplete = 0;
          r.without_pattern = 0;
          r.without_pattern_failed = 0;
          if (!refuted && t.completed < t.forced_runs) {
            // The runs the tally did not count as completed (those that failed after their own
            // steps are counted so).
            std::vector<const DirectedRun*> incomplete;
            for (const DirectedRun& run : runs) {
              if (!run.force.completed && !failed_after_own_steps(run, &*opposite)) incomplete.push_back(&run);
            }
            const WithoutPatternCount without = runs_without_pattern(target, batch.base, incomplete, original,
                                                                     attempts[chosen], batch.timeout_seconds, target_name);
            r.replayed_incomplete = without.replayed;
            r.without_pattern = without.without;
            r.without_pattern_failed = without.without_failed;
            attempt_runs += without.replayed;
          }
        }
        if (realized || retry || !some_read_step_broken(runs) || opposite->hold_at_location != 0) break;
        opposite->hold_at_location = 1;
      }
    }
    // The first serial order is tested at kCounterfactualAlpha; the second only rescues a first
    // one that was realized and did not decide, at half that level.
    const std::size_t tests = (first ? 2 : 1) * looks;
    const CounterfactualDecision d =
        refuted ? decide_necessity(r.completed, r.failed, request.baseline_rate, tests)
                : decide_counterfactual({forced.completed, forced.failed, r.completed, r.failed, r.without_pattern,
                                         r.without_pattern_failed},
                                        tests);
    r.outcome = d.outcome;
    r.p_lower = d.p_lower;
    r.p_without = d.p_without;
    r.attempt_runs = attempt_runs;
    r.alpha = kCounterfactualAlpha / static_cast<double>(tests);
    const bool decided = r.outcome == CounterfactualOutcome::OrderMatters || r.outcome == CounterfactualOutcome::Needed;
    if (decided) return r;
    if (!first) first = std::move(r);
    // An unrealized first order is no control at all (the verdict stands), and the second one,
    // whose other thread is free to run its unlisted accesses first, is no substitute for it.
    if (first->outcome == CounterfactualOutcome::Unrealized) break;
  }
  first->attempt_runs = attempt_runs;
  return *first;
}

}  // namespace

namespace {

// One forcing in context: the pattern from its cut, and, when it fails like a cause there, its
// opposite order from the same cut.
struct ContextAttempt {
  std::vector<DirectedRun> runs;  // the pattern's
  ConfirmationResult forced;
  ConfirmationResult opposite;
  std::vector<std::string> reversed_names;
  InContextEvidence evidence;
  InContextDecision decision;
  std::uint64_t attempt_runs = 0;
};

// `opposite_of` (with its step names) is the order whose opposite is the control: the pattern
// itself, or the pattern with its thread's lock call first.
ContextAttempt attempt_in_context(const LaunchTarget& target, DirectedBatch batch, const ForceDirective& directive,
                                  const std::vector<std::string>& step_names, const ForceDirective& opposite_of,
                                  const std::vector<std::string>& opposite_of_names, const ConfirmRequest& request,
                                  const FailureIdentity& original, const ClassifyContext& context,
                                  const std::string& target_name) {
  const bool never_confirmed = request.symptom || request.passing_only;
  ContextAttempt a;
  batch.directive = directive;
  a.runs = run_directed(target, batch, context, target_name);
  a.forced = tally_confirmation(a.runs, original, request.baseline_rate, &directive, step_names, never_confirmed);
  a.evidence = InContextEvidence{a.forced.completed, a.forced.failed, false, 0, 0, request.baseline_rate, never_confirmed};
  a.attempt_runs = a.forced.forced_runs;
  const std::optional<ForceDirective> reversed = counterfactual_directive(opposite_of);
  a.reversed_names = names_in_order(counterfactual_order(opposite_of), opposite_of_names);
  if (decide_in_context(a.evidence).alone == Verdict::Confirmed && reversed) {
    batch.directive = *reversed;
    const std::vector<DirectedRun> opposite_runs = run_directed(target, batch, context, target_name);
    a.opposite = tally_confirmation(opposite_runs, original, request.baseline_rate, &*reversed, a.reversed_names);
    a.attempt_runs += a.opposite.forced_runs;
    a.evidence.opposite_forced = true;
    a.evidence.opposite_completed = a.opposite.completed;
    a.evidence.opposite_failed = a.opposite.failed;
  }
  a.decision = decide_in_context(a.evidence);
  return a;
}

// The pattern in the failing run's context, and, when it fails like a cause there, its opposite
// order in the same context (in_context.h). Applies the decision to `c`. Returns the runs the
// verdict now comes from when the context confirmed the pattern (their failing seed is the one to
// save), nullopt otherwise (the free runs stay the verdict's).
std::optional<std::vector<DirectedRun>> force_in_context(const LaunchTarget& target, const DirectedBatch& free_batch,
                                                         const ConfirmRequest& request, const FailureIdentity& original,
                                                         ConfirmationResult& c, const ClassifyContext& context,
                                                         const std::string& target_name) {
  const ConfirmRequest::InContext& in = *request.in_context;
  DirectedBatch batch = free_batch;
  batch.base = in.base;
  batch.base.seed = free_batch.base.seed;
  batch.context_log = in.log;
  ContextAttempt attempt = attempt_in_context(target, batch, in.directive, request.step_names, in.directive,
                                              request.step_names, request, original, context, target_name);
  std::string note = in.note;
  c.bindings_tried.push_back("in the failing run's context (" + in.note + "), " + attempt.forced.binding);
  c.attempt_runs += attempt.attempt_runs;
  // The opposite order could not happen at the step: when the step's thread held a lock there,
  // both orders once more from its call of that lock, so the other thread can take it first.
  if (attempt.decision.outcome == InContextOutcome::OppositeUnrealized && in.entry) {
    ForceDirective from_entry = in.directive;
    from_entry.context_step = *in.entry;
    ForceDirective lock_first = from_entry;
    lock_first.count = from_entry.count + 1;
    lock_first.steps[0] = *in.entry;
    std::copy_n(from_entry.steps, from_entry.count, lock_first.steps + 1);
    std::vector<std::string> lock_first_names = {in.entry_name};
    lock_first_names.insert(lock_first_names.end(), request.step_names.begin(), request.step_names.end());
    ContextAttempt entry = attempt_in_context(target, batch, from_entry, request.step_names, lock_first,
                                              lock_first_names, request, original, context, target_name);
    c.bindings_tried.push_back("in the failing run's context (" + in.entry_note + "), " + entry.forced.binding +
                               ": " + std::string(in_context_outcome_name(entry.decision.outcome)));
    c.attempt_runs += entry.attempt_runs;
    if (entry.decision.outcome == InContextOutcome::Confirms) {
      attempt = std::move(entry);
      note = in.entry_note;
    }
  }
  const ConfirmationResult& forced = attempt.forced;
  const ConfirmationResult& opposite = attempt.opposite;
  const InContextEvidence& evidence = attempt.evidence;
  const InContextDecision& decision = attempt.decision;
  const std::vector<std::string>& reversed_names = attempt.reversed_names;
  const Verdict before = c.verdict;
  const Verdict after = verdict_after_context(before, evidence, decision);
  if (decision.outcome == InContextOutcome::Confirms) {
    // The verdict and its evidence are the context's now; the free bindings stay in the list.
    ConfirmationResult confirmed = forced;
    confirmed.verdict = Verdict::Confirmed;
    confirmed.refuted = false;
    confirmed.context = note;
    confirmed.alone = ConfirmationResult::Alone{c.verdict, c.completed, c.failed, c.reason};
    confirmed.bindings_tried = c.bindings_tried;
    confirmed.attempt_runs = c.attempt_runs;
    confirmed.requested_runs = c.requested_runs;
    confirmed.counterfactual.outcome = CounterfactualOutcome::OrderMatters;
    confirmed.counterfactual.forced_runs = opposite.forced_runs;
    confirmed.counterfactual.completed = opposite.completed;
    confirmed.counterfactual.failed = opposite.failed;
    confirmed.counterfactual.failed_incomplete = opposite.failed_incomplete;
    confirmed.counterfactual.failed_other = opposite.failed_other;
    confirmed.counterfactual.binding = opposite.binding;
    confirmed.counterfactual.attempt_runs = opposite.forced_runs;
    confirmed.counterfactual.p_lower = decision.p_opposite;
    confirmed.counterfactual.alpha = kVerdictAlpha;
    confirmed.counterfactual.order = arrows(reversed_names);
    c = std::move(confirmed);
    return std::move(attempt.runs);
  }
  ConfirmationResult::InContextResult r;
  r.note = note;
  r.forced_runs = forced.forced_runs;
  r.context_lost = forced.context_lost;
  r.context_lost_what = forced.context_lost_what;
  r.completed = forced.completed;
  r.failed = forced.failed;
  r.p_above_baseline = decision.p_above_baseline;
  r.verdict = decision.alone;
  r.opposite_forced = evidence.opposite_forced;
  r.opposite_completed = evidence.opposite_completed;
  r.opposite_failed = evidence.opposite_failed;
  r.p_opposite = decision.p_opposite;
  r.outcome = std::string(in_context_outcome_name(decision.outcome));
  c.in_context = r;
  if (after != before) {
    const std::string counts = std::to_string(forced.failed) + "/" + std::to_string(forced.completed);
    const std::string opposite_counts =
        evidence.opposite_forced ? ", its opposite order " + std::to_string(evidence.opposite_failed) + "/" +
                                       std::to_string(evidence.opposite_completed)
                                 : std::string();
    c.reason = "it could not be made to happen alone; in the failing run's context it happens and fails " + counts +
               opposite_counts;
    c.verdict = after;
    c.refuted = after == Verdict::Refuted;
  }
  return std::nullopt;
}

}  // namespace

void apply_counterfactual(ConfirmationResult& c, CounterfactualResult counterfactual) {
  if (c.verdict == Verdict::Refuted && counterfactual.outcome == CounterfactualOutcome::Needed) {
    c.verdict = Verdict::Inconclusive;
    c.refuted = false;
    c.reason = "needed, not sufficient: forced alone it fails " + std::to_string(c.failed) + "/" +
               std::to_string(c.completed) + ", but the opposite order fails " + std::to_string(counterfactual.failed) +
               "/" + std::to_string(counterfactual.completed) + ", less often than the baseline " +
               percent(c.baseline_rate) + " (binomial p = " + p_value_text(counterfactual.p_lower) + " < " +
               p_value_text(counterfactual.alpha) + "): the failing runs need this order together with another";
  }
  if (c.verdict == Verdict::Confirmed && counterfactual.outcome == CounterfactualOutcome::FailsAsOften) {
    c.verdict = Verdict::Inconclusive;
    c.refuted = false;
    // Whichever control did not show the failure rarer: the opposite order's, or the runs that had
    // no occurrence of the pattern (counterfactual.h).
    const auto as_often = [&](const std::string& what, std::uint64_t failed, std::uint64_t runs,
                              const std::string& which, double p) {
      return what + std::to_string(failed) + "/" + std::to_string(runs) + which + " vs " + std::to_string(c.failed) +
             "/" + std::to_string(c.completed) + " (one-sided Fisher p = " + p_value_text(p) + ", not < " +
             p_value_text(counterfactual.alpha) + ")";
    };
    const bool without_decided = counterfactual.without_pattern >= kMinCompletedRuns &&
                                 counterfactual.p_without >= counterfactual.alpha;
    c.reason = without_decided
                   ? as_often("it fails as often without it: ", counterfactual.without_pattern_failed,
                              counterfactual.without_pattern, " forced runs with no occurrence of the pattern at all, replayed,",
                              counterfactual.p_without)
                   : as_often("the opposite order fails as often: ", counterfactual.failed, counterfactual.completed,
                              " where it completed", counterfactual.p_lower);
  }
  c.counterfactual = std::move(counterfactual);
}

void apply_exploration(ConfirmationResult& c, const ExplorationCounts& exploration) {
  const CounterfactualResult& o = c.counterfactual;
  const bool realized = o.outcome != CounterfactualOutcome::NotRun && o.outcome != CounterfactualOutcome::Unrealized;
  if (c.verdict != Verdict::Refuted ||
      refutation_stands(exploration, realized ? o.completed : 0, realized ? o.failed : 0)) {
    return;
  }
  c.verdict = Verdict::Inconclusive;
  c.refuted = false;
  c.reason = "not sufficient alone (fails " + std::to_string(c.failed) + "/" + std::to_string(c.completed) +
             " where it completed), but the exploration had this order " + association_text(exploration) +
             ", and the opposite order never failed this way (0/" + std::to_string(o.completed) +
             " where it completed): it may be a needed part of the cause";
  c.exploration = exploration;
}

// A confirmed two-location finding's pairs, each reversed alone over the finding's seeds
// (coupled_halves.h).
std::vector<HalfControl> force_half_controls(const LaunchTarget& target, DirectedBatch batch, const ForceDirective& finding,
                                             const std::vector<std::string>& step_names, const FailureIdentity& original,
                                             const ConfirmRequest& request, const ConfirmationResult& forced,
                                             const ClassifyContext& context, const std::string& target_name) {
  std::vector<HalfControl> halves;
  batch.keep_failing_schedules = false;
  batch.keep_incomplete_schedules = false;
  for (const HalfReversal& reversal : half_reversals(finding)) {
    const std::optional<ForceDirective> reversed = counterfactual_directive(finding, reversal.order);
    if (!reversed) continue;
    batch.directive = *reversed;
    const std::vector<std::string> names = names_in_order(reversal.order, step_names);
    const ConfirmationResult t = tally_confirmation(run_directed(target, batch, context, target_name), original,
                                                    request.baseline_rate, &*reversed, names);
    HalfControl half;
    half.location = reversal.location;
    half.first = reversal.first;
    half.second = reversal.second;
    half.order = arrows(names);
    half.forced_runs = t.forced_runs;
    half.completed = t.completed;
    half.failed = t.failed;
    half.completed_in_order = t.completed - t.failed_after_own_steps;
    half.failed_in_order = t.failed - t.failed_after_own_steps;
    half.binding = t.binding;
    decide_half(half, forced.failed, forced.completed);
    halves.push_back(std::move(half));
  }
  return halves;
}

ConfirmationResult confirm(const LaunchTarget& target, const ConfirmRequest& request,
                           const ClassifyContext& context, const std::string& target_name) {
  DirectedBatch batch = request.batch;
  batch.keep_failing_schedules = request.save_dir.has_value();
  // Enough runs that a pattern failing in all of them could beat the baseline (forced_runs.h);
  // the counterfactual control runs the same seeds.
  batch.seeds = forced_runs_for_baseline(request.batch.seeds, request.baseline_rate);
  // The binding first, then each fallback while the order could not be made to happen. The
  // verdict comes from the first binding that realized the order; if none did, from the first
  // (the most faithful to the reference run), whose reason says where it stalled.
  std::vector<ForceDirective> attempts = {request.batch.directive};
  attempts.insert(attempts.end(), request.fallbacks.begin(), request.fallbacks.end());
  std::vector<const std::vector<std::string>*> attempt_names(attempts.size(), &request.step_names);
  std::vector<std::string> attempt_notes(attempts.size());  // said after the attempt's binding
  std::deque<std::vector<std::string>> added_names;          // of attempts added below
  std::size_t lock_retry = SIZE_MAX;  // the index of that attempt
  bool location_retried = false;      // the binding held only at the location was added
  std::vector<DirectedRun> runs;
  ConfirmationResult c;
  std::vector<std::string> tried;
  std::uint64_t total_runs = 0;
  std::size_t chosen = 0;                      // the attempt the verdict comes from
  FailureIdentity chosen_original = request.original;
  for (std::size_t a = 0; a < attempts.size(); ++a) {
    batch.directive = attempts[a];
    std::vector<DirectedRun> attempt_runs = run_directed(target, batch, context, target_name);
    FailureIdentity original = request.original;
    if (request.adopt_first_failure) {
      const auto failed = std::find_if(attempt_runs.begin(), attempt_runs.end(),
                                       [](const DirectedRun& r) { return r.result.failed(); });
      if (failed != attempt_runs.end()) original = failure_identity(failed->result);
    }
    ConfirmationResult attempt = tally_confirmation(attempt_runs, original, request.baseline_rate, &attempts[a],
                                                    *attempt_names[a], request.symptom || request.passing_only);
    attempt.binding += attempt_notes[a];
    total_runs += attempt.forced_runs;
    tried.push_back(attempt.binding);
    const bool realized = attempt.verdict != Verdict::Unrealized;
    // Stalled because a write reached a read step's location before the read (rule 7),
    // e.g. the partner held before it published the object went on to fill it when the reader
    // blocked on its lock: once, the binding again with the partner held only at that location.
    if (!realized && some_read_step_broken(attempt_runs) && !location_retried &&
        attempts[a].hold_at_location == 0) {
      location_retried = true;
      ForceDirective retry = attempts[a];
      retry.hold_at_location = 1;
      attempts.push_back(retry);
      attempt_names.push_back(attempt_names[a]);
      attempt_notes.push_back(attempt_notes[a] + ", the partner held only at its accesses to the location (held "
                              "everywhere, a write reached the location before the read)");
    }
    // Stalled because a thread owned a lock the thread of an earlier step was blocked on (it could
    // not be held, and went on to its step out of order): once, after every other binding, the
    // first such binding again with that thread held at the call that took the lock
    // (docs/forcing.md, "Held before its lock").
    if (!realized && lock_retry == SIZE_MAX) {
      if (auto retry = lock_call_retry(attempts[a], attempt_runs, *attempt_names[a], request.name_step)) {
        lock_retry = attempts.size();
        added_names.push_back(std::move(retry->names));
        attempts.push_back(retry->directive);
        attempt_names.push_back(&added_names.back());
        attempt_notes.push_back(retry->note);
      }
    }
    if (a == 0 || realized) {
      c = std::move(attempt);
      runs = std::move(attempt_runs);
      chosen = a;
      chosen_original = original;
    }
    if (realized) break;
  }
  // A realized order that completed in too few runs to beat a high baseline even if each failed
  // is forced over further seeds until enough completed (forced_runs.h, top_up_runs): the runs
  // where a frequent failure came first by another path are no evidence, and they must not cost
  // the pattern its power. barrier_phase fails 82% of plain runs; its cause completed in 10 of 23.
  // Only runs in which the order itself completed count here: a run "completed" because it failed
  // after its own steps is counted for failing, and topping up on those would add failures only
  // (heldout metrics_reporter: 35 such runs of 38, none where the order happened).
  for (std::uint64_t more = 0;
       c.verdict != Verdict::Unrealized &&
       (more = top_up_runs(runs.size(), c.completed - c.failed_after_own_steps, request.baseline_rate)) > 0;) {
    DirectedBatch next = batch;
    next.directive = attempts[chosen];
    next.base.seed = batch.base.seed + runs.size();
    next.seeds = more;
    std::vector<DirectedRun> more_runs = run_directed(target, next, context, target_name);
    total_runs += more_runs.size();
    runs.insert(runs.end(), std::make_move_iterator(more_runs.begin()), std::make_move_iterator(more_runs.end()));
    const std::string binding = c.binding;
    c = tally_confirmation(runs, chosen_original, request.baseline_rate, &attempts[chosen], *attempt_names[chosen],
                           request.symptom || request.passing_only);
    c.binding = binding;
  }
  batch.seeds = runs.size();  // the counterfactual control runs the same seeds
  c.bindings_tried = std::move(tried);
  c.attempt_runs = total_runs;
  c.requested_runs = request.batch.seeds;
  if (request.symptom && c.verdict == Verdict::Inconclusive) c.reason = request.symptom_reason;
  if (request.passing_only && !request.symptom && c.verdict == Verdict::Inconclusive &&
      decide_verdict({c.completed, c.failed, request.baseline_rate, false}).verdict == Verdict::Confirmed) {
    c.reason = request.passing_only_reason;
  }
  // A pattern failing like a cause that the baseline keeps from being confirmed says why.
  if (c.verdict == Verdict::Inconclusive && c.reason.empty() &&
      static_cast<double>(c.failed) >= kCauseFailureRate * static_cast<double>(c.completed)) {
    c.reason = confirmation_power_limit(c.completed, request.baseline_rate);
  }
  // Confirmed: the opposite order must fail less often. Refuted: the opposite order must not make
  // the failure rarer than the baseline, or the order is needed (counterfactual.h).
  if (request.counterfactual_control && (c.verdict == Verdict::Confirmed || c.verdict == Verdict::Refuted)) {
    // A confirmed order's control may look twice, each look at half the level: once over the
    // forced seeds, and, when that look leans the order's way without deciding, again over twice
    // as many (docs/forcing.md, "The counterfactual control": inside a loop both orders fail
    // often, the other iterations being free, and 15 runs cannot tell 100% from 77%).
    const bool confirmed = c.verdict == Verdict::Confirmed;
    const std::size_t looks = confirmed ? 2 : 1;
    CounterfactualResult control = force_counterfactual(target, batch, attempts, chosen, *attempt_names[chosen],
                                                        chosen_original, request, c, context, target_name, looks);
    const auto rate = [](std::uint64_t failed, std::uint64_t completed) {
      return completed == 0 ? 0.0 : static_cast<double>(failed) / static_cast<double>(completed);
    };
    const bool leans = control.outcome == CounterfactualOutcome::FailsAsOften &&
                       control.completed >= kMinCompletedRuns && control.p_lower < kSecondLookBelow &&
                       rate(c.failed, c.completed) > rate(control.failed, control.completed);
    if (confirmed && leans && runs.size() < kMaxForcedRuns) {
      DirectedBatch next = batch;
      next.directive = attempts[chosen];
      next.base.seed = batch.base.seed + runs.size();
      next.seeds = std::min<std::uint64_t>(runs.size(), kMaxForcedRuns - runs.size());
      std::vector<DirectedRun> more_runs = run_directed(target, next, context, target_name);
      c.attempt_runs += more_runs.size();
      runs.insert(runs.end(), std::make_move_iterator(more_runs.begin()), std::make_move_iterator(more_runs.end()));
      const std::string binding = c.binding;
      const auto tried_before = c.bindings_tried;
      const auto attempt_runs = c.attempt_runs;
      const auto requested = c.requested_runs;
      c = tally_confirmation(runs, chosen_original, request.baseline_rate, &attempts[chosen], *attempt_names[chosen],
                             request.symptom || request.passing_only);
      c.binding = binding;
      c.bindings_tried = tried_before;
      c.attempt_runs = attempt_runs;
      c.requested_runs = requested;
      batch.seeds = runs.size();
      if (c.verdict == Verdict::Confirmed) {
        control = force_counterfactual(target, batch, attempts, chosen, *attempt_names[chosen], chosen_original,
                                       request, c, context, target_name, looks);
        control.looks = 2;
      }
    }
    if (c.verdict == Verdict::Confirmed || c.verdict == Verdict::Refuted) apply_counterfactual(c, control);
    // Held at its lock call, the thread's whole critical section comes after the earlier step:
    // only its opposite order can show that this, and not what decided whether the thread calls
    // the lock at all (a check before it), makes the run fail (docs/forcing.md, "Held before its
    // lock"). Runs without the pattern are no evidence here: they are the runs where the thread
    // never got to its lock call.
    if (chosen == lock_retry && c.verdict == Verdict::Confirmed && control.outcome == CounterfactualOutcome::Unrealized) {
      c.verdict = Verdict::Inconclusive;
      c.reason = "held at its lock call the order fails, but its opposite order could not be made to happen (" +
                 std::to_string(control.completed) + "/" + std::to_string(control.forced_runs) +
                 " completed), so nothing shows that this order, rather than what led the thread to its lock call, "
                 "decides the failure";
    }
    if (c.verdict == Verdict::Confirmed) {
      c.halves = force_half_controls(target, batch, attempts[chosen], *attempt_names[chosen], chosen_original, request, c,
                                     context, target_name);
      if (const HalfControl* extra = pair_not_needed(c.halves)) {
        c.verdict = Verdict::Inconclusive;
        c.reason = "one of its pairs is not a part of the cause: with that pair reversed and the other kept (" +
                   extra->order + ") it fails " + std::to_string(extra->failed_in_order) + "/" +
                   std::to_string(extra->completed_in_order) + " where that order completed (one-sided Fisher p = " +
                   p_value_text(extra->p_in_order) + ", not < " + p_value_text(kCounterfactualAlpha) + ")";
      }
    }
  }
  // Unrealized or inconclusive: forced once more in the failing run's context (in_context.h). A
  // refutation stands (verdict_after_context), so a refuted pattern is not forced again.
  if (request.in_context && (c.verdict == Verdict::Unrealized || c.verdict == Verdict::Inconclusive)) {
    if (std::optional<std::vector<DirectedRun>> context_runs =
            force_in_context(target, batch, request, chosen_original, c, context, target_name)) {
      runs = std::move(*context_runs);  // the same seeds as the free runs
    }
  }
  if (c.verdict == Verdict::Refuted && request.exploration) apply_exploration(c, *request.exploration);
  if (!c.failing_seed || !request.save_dir) return c;
  const DirectedRun& first = runs[static_cast<std::size_t>(*c.failing_seed - batch.base.seed)];
  if (!first.schedule) {
    c.save_problem = "the forced run's decision log could not be read back";
    return c;
  }
  if (const std::string warning = ScheduleStore(*request.save_dir).prepare(); !warning.empty()) {
    c.save_problem = warning;
    return c;
  }
  const std::filesystem::path path = *request.save_dir / forced_schedule_name(*c.failing_seed, first.schedule->hash);
  if (std::string problem = write_schedule_file(path, *first.schedule); !problem.empty()) {
    c.save_problem = std::move(problem);
    return c;
  }
  c.schedule_path = path.string();
  std::vector<std::string> words = {"ctrlsched", "replay", "--schedule", c.schedule_path, request.test.target};
  words.insert(words.end(), request.test.args.begin(), request.test.args.end());
  c.replay_command = shell_join(words);
  return c;
}

std::string render_confirmation(std::size_t rank, const ConfirmationResult& c) {
  const std::string head = "forcing #" + std::to_string(rank) + " ";
  const std::string of = std::to_string(c.forced_runs);
  if (c.verdict == Verdict::Unrealized && c.forced_runs > 0) {
    return head + "unrealized: order completed in " + std::to_string(c.completed) + "/" + of +
           (c.reason.empty() ? std::string() : "; " + c.reason);
  }
  if (c.refuted && c.failed > 0) {
    std::string line = head + "refuted: fails " + std::to_string(c.failed) + "/" + std::to_string(c.completed) +
                       " runs where the order completed (baseline " + percent(c.baseline_rate) + ")";
    if (c.failed_other > 0) line += ", " + other_failures(c.failed_other);
    return line;
  }
  if (!c.refuted) {
    std::string line = head + "fails " + std::to_string(c.failed) + "/" + of + " (baseline " + percent(c.baseline_rate) + ")";
    if (c.failed_other > 0) line += ", " + other_failures(c.failed_other);
    if (c.counterfactual.outcome == CounterfactualOutcome::FailsAsOften) {
      line += "; the opposite order fails as often (" + std::to_string(c.counterfactual.failed) + "/" +
              std::to_string(c.counterfactual.completed) + ")";
    }
    return line;
  }
  std::string line = head + "refuted: forcing never fails";
  if (c.failed_other > 0) line += " this way";
  line += " (0/" + of;
  if (c.failed_other > 0) line += ", " + other_failures(c.failed_other);
  line += ", order achieved in " + std::to_string(c.completed) + ")";
  return line;
}

nlohmann::json confirmation_json(const ConfirmationResult& c) {
  nlohmann::json j = {{"forced_runs", c.forced_runs}, {"failed", c.failed},
                      {"failed_incomplete", c.failed_incomplete}, {"failed_other", c.failed_other}, {"completed", c.completed},
                      {"baseline_rate", c.baseline_rate}, {"refuted", c.refuted}};
  if (c.failed_after_own_steps > 0) j["failed_after_own_steps"] = c.failed_after_own_steps;
  if (c.failed_other_completed > 0) j["failed_other_completed"] = c.failed_other_completed;
  j["verdict"] = std::string(verdict_name(c.verdict));
  j["test"] = {{"name", "one-sided exact binomial"},
               {"alpha", kVerdictAlpha},
               {"min_completed", kMinCompletedRuns},
               {"cause_rate", kCauseFailureRate},
               {"p_above_baseline", c.p_above_baseline},
               {"p_below_cause", c.p_below_cause}};
  if (c.requested_runs != 0 && c.requested_runs != c.forced_runs) j["requested_runs"] = c.requested_runs;
  if (!c.reason.empty()) j["reason"] = c.reason;
  if (!c.binding.empty()) j["binding"] = c.binding;
  if (c.bindings_tried.size() > 1) {
    j["bindings_tried"] = c.bindings_tried;
    j["attempt_runs"] = c.attempt_runs;
  }
  if (c.counterfactual.outcome != CounterfactualOutcome::NotRun) {
    const CounterfactualResult& o = c.counterfactual;
    nlohmann::json cf = {{"outcome", std::string(counterfactual_outcome_name(o.outcome))},
                         {"order", o.order},
                         {"forced_runs", o.forced_runs},
                         {"completed", o.completed},
                         {"failed", o.failed},
                         {"failed_incomplete", o.failed_incomplete},
                         {"failed_other", o.failed_other},
                         {"replayed_incomplete", o.replayed_incomplete},
                         {"without_pattern", o.without_pattern},
                         {"without_pattern_failed", o.without_pattern_failed},
                         {"binding", o.binding},
                         {"attempt_runs", o.attempt_runs}};
    const bool necessity = o.outcome == CounterfactualOutcome::Needed || o.outcome == CounterfactualOutcome::NotNeeded;
    cf["test"] = {{"name", necessity ? "one-sided exact binomial vs baseline" : "one-sided Fisher exact"},
                  {"alpha", o.alpha},
                  {"p_lower", o.p_lower}};
    if (o.without_pattern >= kMinCompletedRuns) cf["test"]["p_without"] = o.p_without;
    if (!o.reason.empty()) cf["reason"] = o.reason;
    if (o.looks == 2) cf["looks"] = o.looks;
    j["counterfactual"] = std::move(cf);
  }
  if (!c.context.empty()) {
    j["context"] = c.context;
    j["context_lost"] = c.context_lost;
  }
  if (c.alone) {
    j["alone"] = {{"verdict", std::string(verdict_name(c.alone->verdict))},
                  {"completed", c.alone->completed},
                  {"failed", c.alone->failed}};
    if (!c.alone->reason.empty()) j["alone"]["reason"] = c.alone->reason;
  }
  if (c.in_context) {
    const auto& r = *c.in_context;
    j["in_context"] = {{"context", r.note},
                       {"forced_runs", r.forced_runs},
                       {"context_lost", r.context_lost},
                       {"context_lost_first", r.context_lost_what},
                       {"completed", r.completed},
                       {"failed", r.failed},
                       {"p_above_baseline", r.p_above_baseline},
                       {"verdict", std::string(verdict_name(r.verdict))},
                       {"outcome", r.outcome}};
    if (r.opposite_forced) {
      j["in_context"]["opposite"] = {{"completed", r.opposite_completed},
                                     {"failed", r.opposite_failed},
                                     {"test", {{"name", "one-sided Fisher exact"},
                                               {"alpha", kVerdictAlpha},
                                               {"p_lower", r.p_opposite}}}};
    }
  }
  if (c.exploration) {
    const ExplorationCounts& e = *c.exploration;
    j["exploration"] = {{"failing_with", e.failing_with},
                        {"failing", e.failing},
                        {"passing_with", e.passing_with},
                        {"passing", e.passing},
                        {"test", {{"name", "one-sided Fisher exact"},
                                  {"alpha", kAssociationAlpha},
                                  {"p", failure_association_p(e)}}}};
  }
  const auto half_json = [](const HalfControl& h) {
    return nlohmann::json{{"order", h.order},
                          {"forced_runs", h.forced_runs},
                          {"completed", h.completed},
                          {"failed", h.failed},
                          {"completed_in_order", h.completed_in_order},
                          {"failed_in_order", h.failed_in_order},
                          {"needed", h.needed},
                          {"not_needed", h.not_needed},
                          {"p_in_order", h.p_in_order},
                          {"binding", h.binding},
                          {"test", {{"name", "one-sided Fisher exact"}, {"alpha", kCounterfactualAlpha}, {"p_lower", h.p_lower}}}};
  };
  if (!c.halves.empty()) {
    j["halves"] = nlohmann::json::array();
    for (const HalfControl& h : c.halves) j["halves"].push_back(half_json(h));
  }
  if (c.coupled_part) {
    j["coupled_part"] = {{"finding", c.coupled_part->finding},
                         {"partner", c.coupled_part->partner},
                         {"finding_completed", c.coupled_part->finding_completed},
                         {"finding_failed", c.coupled_part->finding_failed},
                         {"reversed", half_json(c.coupled_part->control)}};
    if (!c.coupled_part->replay_command.empty()) j["coupled_part"]["replay"] = c.coupled_part->replay_command;
  }
  if (c.failing_seed) j["failing_seed"] = *c.failing_seed;
  if (!c.replay_command.empty()) {
    j["schedule"] = c.schedule_path;
    j["replay"] = c.replay_command;
  }
  return j;
}

}  // namespace ctrlsched::driver

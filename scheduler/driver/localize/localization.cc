// The localization pipeline of seeds mode (see localization.h and docs/localization.md).
#include "localize/localization.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <cstring>
#include <filesystem>

#include "ctrlsched/access_pairs.h"
#include "ctrlsched/sync_ops.h"
#include "localize/confirm.h"
#include "localize/coupled_halves.h"
#include "localize/falcon_summary.h"
#include "localize/locon_report.h"
#include "localize/pattern_directives.h"
#include "localize/predict.h"
#include "localize/reference_binding.h"
#include "localize/sibling_locations.h"
#include "localize/spectra_summary.h"
#include "localize/symptoms.h"
#include "runs/run_record_region.h"

namespace ctrlsched::driver {
namespace {

constexpr std::size_t kShownPatterns = 10;
constexpr std::size_t kShownComponents = 8;
constexpr std::uint64_t kSpectraSeedsPerDirective = 20;

bool is_sync_sighting(const localize::FalconSighting& s) { return falcon_kind_is_sync(s.id.kind); }

std::string percent_text(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * fraction);
  return buffer;
}

// "1.2e-05": p-values in the evidence.
std::string p_text(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2g", p);
  return buffer;
}

// The counterfactual control's line under a confirmed (or by it inconclusive) pattern
// (docs/forcing.md, "The counterfactual control").
std::string render_counterfactual(const CounterfactualResult& o, const std::string& indent) {
  if (o.outcome == CounterfactualOutcome::NotRun) return "";
  std::string text = indent + "opposite order (" + o.order + "): ";
  if (o.outcome == CounterfactualOutcome::Unrealized) {
    text += "completed in " + std::to_string(o.completed) + "/" + std::to_string(o.forced_runs) +
            " forced runs (need " + std::to_string(kMinCompletedRuns) + "), so the control is unrealized";
    if (o.without_pattern > 0) {
      text += "; " + std::to_string(o.without_pattern) + " more had no occurrence of the pattern (" +
              std::to_string(o.without_pattern_failed) + " failing)";
    }
    if (!o.reason.empty()) text += "; " + o.reason;
    return text + "\n";
  }
  text += "fails " + std::to_string(o.failed) + "/" + std::to_string(o.completed) + " runs where it completed (" +
          std::to_string(o.forced_runs) + " forced); ";
  if (o.without_pattern > 0) {
    // The second control (without_pattern.h): runs with no occurrence of the pattern.
    text += "without the pattern (replayed runs where the opposite did not complete and the pattern never "
            "happened) fails " +
            std::to_string(o.without_pattern_failed) + "/" + std::to_string(o.without_pattern) +
            (o.without_pattern >= kMinCompletedRuns ? " (Fisher p = " + p_text(o.p_without) + ")"
                                                    : " (fewer than " + std::to_string(kMinCompletedRuns) + ": no control)") +
            "; ";
  }
  if (o.outcome == CounterfactualOutcome::Needed || o.outcome == CounterfactualOutcome::NotNeeded) {
    const bool needed = o.outcome == CounterfactualOutcome::Needed;
    text += "binomial p = " + p_text(o.p_lower) + (needed ? " < " : ", not < ") + p_text(o.alpha) +
            (needed ? ": below the baseline, the failing runs need this order" : " below the baseline: the order is not needed");
  } else {
    text += "one-sided Fisher p = " + p_text(o.p_lower) +
            (o.outcome == CounterfactualOutcome::OrderMatters ? " < " : ", not < ") + p_text(o.alpha) +
            (o.outcome == CounterfactualOutcome::OrderMatters ? ": the order matters" : ": the order does not");
  }
  if (o.failed_other > 0) text += ", " + std::to_string(o.failed_other) + " failed another way";
  if (o.looks == 2) text += "; second look, over twice the seeds";
  if (!o.binding.empty() && o.binding != "roles bind at first match") text += "; binding: " + o.binding;
  return text + "\n";
}

bool same_directive(const ForceDirective& a, const ForceDirective& b) {
  if (a.kind != b.kind || a.count != b.count) return false;
  for (std::uint32_t i = 0; i < a.count; ++i) {
    if (a.steps[i].site != b.steps[i].site || a.steps[i].access != b.steps[i].access ||
        a.steps[i].role != b.steps[i].role) {
      return false;
    }
  }
  return true;
}

// A suspected pattern waiting to be forced, and what forcing it showed.
struct Suspect {
  ForceDirective directive{};
  bool symptom = false;
  std::string symptom_reason;
  std::string passing_only_reason;  // ConfirmRequest::passing_only: why, "" when not
  std::vector<std::string> step_names;
  std::string location;  // the memory location it orders ("0x7fffffffe418"); "" when unknown
  std::optional<ConfirmationResult> confirmation;
  std::size_t same_as = SIZE_MAX;  // index of an earlier suspect with the same directive
};

class Confirmer {
 public:
  Confirmer(const LaunchTarget& target, const Report& report, const LocalizeSettings& settings,
            const ClassifyContext& context, const std::string& target_name)
      : target_(target), report_(report), settings_(settings), context_(context), target_name_(target_name) {
    for (const RunResult& run : report.runs) {
      if (run.failed()) {
        original_ = failure_identity(run);
        if (run.failure) failure_where_ = SourceLocation{"", "", run.failure->file, run.failure->line, 0};
        break;
      }
    }
    baseline_ = report.runs.empty() ? 0.0
                                    : static_cast<double>(report.failures()) / static_cast<double>(report.runs.size());
  }

  // The failing run whose occurrence of each pattern binds its roles (reference_binding.h), and
  // the sites passing runs executed (symptoms.h); names for the reasons.
  void set_reference(const localize::Trace* trace, std::set<std::uint64_t> passing_sites, bool any_passing,
                     const RecordNames* names) {
    reference_ = trace;
    context_log_.reset();
    passing_sites_ = std::move(passing_sites);
    any_passing_ = any_passing;
    names_ = names;
  }

  // The reference run's decisions and spec, for forcing in its context (in_context.h). Not for a
  // reference run that decided at synchronization points only: a memory step has no point there.
  void set_context(const Schedule& schedule, const RunSpec& spec) {
    if (spec.points == PointsMode::Sync) return;
    context_log_ = encode_input_log(schedule.decisions, kLogRegionBytes);
    context_spec_ = spec;
    context_spec_.strategy = StrategyKind::Random;  // the continuation: a uniformly random walk
    context_spec_.preemption_bound.reset();
    context_spec_.expected_hash.reset();
    context_seed_ = spec.seed;
  }

  ConfirmRequest::InContext in_context(const ForceDirective& bound, const ReferenceOccurrence& occurrence) const {
    ConfirmRequest::InContext in;
    in.directive = bound;
    in.directive.context = 1;
    in.directive.context_thread = bound_thread(bound, bound.steps[0].role);
    in.directive.context_step = bound.steps[0];
    in.log = *context_log_;
    in.base = context_spec_;
    in.note = "seed " + std::to_string(context_seed_) + " replayed up to its step 1, then random";
    // The same, cut where step 1's thread took the lock it holds at step 1, that call first.
    if (const auto entry = critical_section_entry(bound, *reference_, occurrence); entry && bound.count < kMaxForceSteps) {
      in.entry = *entry;
      in.entry_name = step_name(*entry);
      in.entry_note = "seed " + std::to_string(context_seed_) + " replayed up to T" +
                      std::to_string(in.directive.context_thread) + "'s " + in.entry_name +
                      ", the lock it holds at step 1, then random";
    }
    return in;
  }

  // The Falcon ranking of the exploration: an order it saw only in passing runs is never
  // confirmed, whichever analysis proposes it (ConfirmRequest::passing_only).
  void set_falcon(const localize::FalconRanking* falcon, const std::map<std::uint64_t, std::uint64_t>* statement_of) {
    falcon_ = falcon;
    statement_of_ = statement_of;
  }

  // Registers a pattern; returns its number for later lookup.
  std::size_t add(const ForceDirective& directive, std::string location = "") {
    Suspect suspect;
    suspect.directive = directive;
    suspect.location = std::move(location);
    suspect.passing_only_reason = passing_only_reason(directive);
    for (std::uint32_t i = 0; i < directive.count && i < kMaxForceSteps; ++i) {
      const ForceStep& step = directive.steps[i];
      suspect.step_names.push_back(step_name(step));
      if (any_passing_ && step.site != 0 && !passing_sites_.contains(step.site) && !suspect.symptom) {
        suspect.symptom = true;
        suspect.symptom_reason = "symptom: step " + std::to_string(i + 1) + " (" + suspect.step_names.back() +
                                 ") runs in no passing run, so the order happens only once the failure is determined";
      }
    }
    for (std::size_t i = 0; i < suspects_.size(); ++i) {
      if (same_directive(suspects_[i].directive, directive)) suspect.same_as = i;
    }
    suspects_.push_back(suspect);
    return suspects_.size() - 1;
  }

  // "W a.c:30 f", "R a.c:26 f", or a sync step's operation: "lock a.c:20 f".
  std::string step_name(const ForceStep& step) const {
    const std::string kind = step.access >= kForceSync ? std::string(sync_op_name(static_cast<SyncOp>(step.access - kForceSync))) + " "
                             : step.access == static_cast<std::uint8_t>(ForceAccess::Write) ? "W "
                                                                                             : "R ";
    return kind + (names_ != nullptr ? names_->site(step.site) : std::to_string(step.site));
  }

  // Forces one suspect: bound to the reference run when it has an occurrence there (with the
  // fallbacks and the failing run's context), with every control (confirm.h).
  void confirm_suspect(Suspect& s) {
    ConfirmRequest request;
    request.batch.base = directed_base_spec(report_.header);
    request.batch.seeds = settings_.confirm_seeds;
    request.batch.directive = s.directive;
    // Bind the roles as the reference failing run had them (threads and occurrences), then
    // threads only, then unbound, while the order cannot be made to happen.
    if (reference_ != nullptr) {
      if (const auto occurrence = last_occurrence(s.directive, *reference_, statement_of_)) {
        const auto with_occurrences = bind_to_occurrence(s.directive, *reference_, *occurrence, true);
        const auto threads_only = bind_to_occurrence(s.directive, *reference_, *occurrence, false);
        if (with_occurrences && threads_only) {
          request.batch.directive = *with_occurrences;
          request.fallbacks = {*threads_only, s.directive};
        }
        // When none of those confirms it: forced from the moment the failing run performed its
        // first step, that run's decisions replayed up to there (in_context.h).
        // A sync first step needs a point to cut at (has_sync_point): not `woken`, not `create`.
        const std::uint8_t first = s.directive.steps[0].access;
        const bool cuttable = first < kForceSync || has_sync_point(static_cast<SyncOp>(first - kForceSync));
        if (with_occurrences && context_log_ && cuttable) {
          request.in_context = in_context(*with_occurrences, *occurrence);
        }
      }
    }
    request.symptom = s.symptom;
    request.symptom_reason = s.symptom_reason;
    request.passing_only = !s.passing_only_reason.empty();
    request.passing_only_reason = s.passing_only_reason;
    request.step_names = s.step_names;
    request.counterfactual_control = true;  // a confirmed order must fail more than its opposite
    request.exploration = exploration_counts(s.directive);
    request.batch.jobs = settings_.jobs;
    request.batch.timeout_seconds = settings_.timeout_seconds;
    request.batch.keep_failing_schedules = true;
    request.original = original_.value_or(FailureIdentity{OutcomeKind::Pass, ""});
    request.adopt_first_failure = !original_.has_value();
    request.baseline_rate = baseline_;
    request.test = report_.header.test;
    request.name_step = [this](const ForceStep& step) { return step_name(step); };
    if (!settings_.save_dir.empty()) request.save_dir = settings_.save_dir;
    s.confirmation = confirm(target_, request, context_, target_name_);
  }

  // Falcon and ConSeq rank one location at a time: a two-variable bug's halves come as separate
  // pairs, and Locon may report the coupled pair for the other straddle or not at all. A forced
  // pair not confirmed alone and a confirmed one on another location, both by the reference run's
  // two threads, are forced together as one two-variable finding (couplings: the confirmed pair
  // in its order and reversed), which gets the per-pair controls of coupled_halves.h;
  // confirm_coupled_parts then reads them.
  void couple_pairs_across_locations() {
    if (reference_ == nullptr) return;
    std::vector<ForceDirective> coupled;
    for (const Suspect& p : suspects_) {
      if (p.same_as != SIZE_MAX || !p.confirmation || p.confirmation->verdict == Verdict::Confirmed || p.symptom) continue;
      for (const Suspect& q : suspects_) {
        if (&q == &p || q.same_as != SIZE_MAX || !q.confirmation || q.confirmation->verdict != Verdict::Confirmed) continue;
        for (const ForceDirective& both : couplings(q.directive, p.directive, *reference_)) {
          const auto same = [&](const ForceDirective& d) { return same_directive(d, both); };
          const bool known = std::any_of(suspects_.begin(), suspects_.end(), [&](const Suspect& s) { return same(s.directive); }) ||
                             std::any_of(coupled.begin(), coupled.end(), same);
          if (!known) coupled.push_back(both);
        }
      }
    }
    for (const ForceDirective& d : coupled) confirm_suspect(suspects_[add(d)]);
  }

  void run_all() {
    if (!settings_.confirm) return;
    for (Suspect& s : suspects_) {
      if (s.same_as == SIZE_MAX) confirm_suspect(s);
    }
    couple_pairs_across_locations();
    // A refutation is read by line: it does not stand beside the same lines failing on another
    // location (sibling_locations.h).
    std::vector<ForcedPattern> patterns;
    std::vector<ConfirmationResult*> results;
    for (Suspect& s : suspects_) {
      patterns.push_back({s.directive, s.step_names, s.location, s.symptom});
      Suspect& owner = s.same_as == SIZE_MAX ? s : suspects_[s.same_as];
      results.push_back(owner.confirmation ? &*owner.confirmation : nullptr);
    }
    qualify_refutations_by_lines(patterns, results);
    // A pattern that is a needed pair of a confirmed two-variable finding is confirmed as that
    // part (coupled_halves.h); Locon's sites and Falcon's are compared by statement.
    std::vector<ForcedPattern> by_statements = patterns;
    for (ForcedPattern& p : by_statements) p.directive = by_statement(p.directive);
    confirm_coupled_parts(by_statements, results);
    if (lock_cycle_ != nullptr) {
      for (std::size_t i = 0; i < suspects_.size(); ++i) {
        if (results[i] != nullptr && is_half_of_longer_cycle(suspects_[i].directive, *lock_cycle_)) {
          qualify_refutation_by_cycle(*results[i], *lock_cycle_);
        }
      }
    }
  }

  // The deadlock's lock-order cycle, if the failing runs had one (qualify_refutation_by_cycle).
  void set_lock_cycle(const LockCycle* cycle) { lock_cycle_ = cycle; }

  const ConfirmationResult* result(std::size_t id) const {
    const Suspect& s = suspects_[id];
    const Suspect& owner = s.same_as == SIZE_MAX ? s : suspects_[s.same_as];
    return owner.confirmation ? &*owner.confirmation : nullptr;
  }

  // The lines under a pattern: the verdict, the evidence beside it, and how to replay a forced
  // failure (docs/forcing.md, "Verdicts and their statistics").
  std::string render(std::size_t id, const std::string& indent, const std::string& label = "") const {
    const ConfirmationResult* c = result(id);
    if (c == nullptr) return "";
    const std::string verdict = verdict_name(id);
    const std::string of = std::to_string(c->forced_runs);
    const std::string baseline =
        original_ ? "baseline " + percent_text(c->baseline_rate) : std::string("no seed failed without forcing");
    std::string text = indent + label + verdict + ": ";
    if (c->coupled_part) {
      // Confirmed as a pair of a two-variable finding (coupled_halves.h): that evidence first.
      const auto& part = *c->coupled_part;
      text += "a part of a two-variable cause: forced with " + part.partner + " it fails " +
              std::to_string(part.finding_failed) + "/" + std::to_string(part.finding_completed) +
              " runs where both completed; with this order reversed and the other kept, " +
              std::to_string(part.control.failed) + "/" + std::to_string(part.control.completed) +
              " (one-sided Fisher p = " + p_text(part.control.p_lower) + " < " + p_text(kCounterfactualAlpha) + ")\n";
      if (c->alone) {
        text += indent + "  alone: " + std::string(driver::verdict_name(c->alone->verdict)) + ", fails " +
                std::to_string(c->alone->failed) + "/" + std::to_string(c->alone->completed) +
                " runs where the order completed (" + of + " forced)" +
                (c->alone->reason.empty() ? std::string() : "; " + c->alone->reason) + "\n";
      }
      text += render_counterfactual(c->counterfactual, indent + "  ");
      if (!part.replay_command.empty()) text += indent + "  replay (with its partner): " + part.replay_command + "\n";
      return text;
    }
    if (c->verdict == Verdict::Unrealized) {
      text += "order completed in " + std::to_string(c->completed) + "/" + of + " forced runs (need " +
              std::to_string(kMinCompletedRuns) + ")";
      if (!c->reason.empty()) text += "; " + c->reason;
    } else {
      // More forced runs than asked: fewer could not have confirmed against this baseline
      // (forced_runs.h).
      const std::string raised = c->requested_runs != 0 && c->forced_runs > c->requested_runs
                                     ? ", not " + std::to_string(c->requested_runs) + ": fewer cannot beat the baseline"
                                     : std::string();
      text += "fails " + std::to_string(c->failed) + "/" + std::to_string(c->completed) +
              " runs where the order completed (" + of + " forced" + raised + "; " + baseline + "; ";
      if (c->verdict == Verdict::Refuted) {
        text += "P(<=" + std::to_string(c->failed) + " | " + std::to_string(c->completed) + ", 50%) = " +
                p_text(c->p_below_cause) + " < " + p_text(kVerdictAlpha) + ")";
      } else {
        text += "binomial p = " + p_text(c->p_above_baseline) + " vs baseline)";
      }
    }
    if (c->failed_after_own_steps > 0) {
      text += ", " + std::to_string(c->failed_after_own_steps) + " of them failing after the failing thread's own " +
              "steps, before the rest";
    }
    if (c->failed_incomplete > 0) {
      text += ", " + std::to_string(c->failed_incomplete) + " failed before the order was complete";
    }
    if (c->failed_other > 0) text += ", " + std::to_string(c->failed_other) + " failed another way";
    if (c->verdict != Verdict::Unrealized && !c->reason.empty()) text += "; " + c->reason;
    text += "\n";
    if (c->bindings_tried.size() > 1 || (c->binding != "roles bind at first match" && !c->binding.empty())) {
      text += indent + "  binding: " + c->binding;
      if (c->bindings_tried.size() > 1) {
        text += " (tried:";
        for (std::size_t i = 0; i < c->bindings_tried.size(); ++i) text += (i ? "; " : " ") + c->bindings_tried[i];
        text += ")";
      }
      text += "\n";
    }
    if (!c->context.empty()) {
      text += indent + "  in the failing run's context: " + c->context;
      if (c->alone) {
        text += "; its own bindings alone: " + std::string(driver::verdict_name(c->alone->verdict)) + ", fails " +
                std::to_string(c->alone->failed) + "/" + std::to_string(c->alone->completed) + " where it completed";
        if (!c->alone->reason.empty()) text += " (" + c->alone->reason + ")";
      }
      text += "\n";
    }
    if (c->in_context && c->in_context->forced_runs > 0) {
      // Forced where the failing run performed its first step (in_context.h): what that shows.
      const auto& r = *c->in_context;
      text += indent + "  in the failing run's context (" + r.note + "): ";
      if (r.completed < kMinCompletedRuns) {
        text += "order completed in " + std::to_string(r.completed) + "/" + std::to_string(r.forced_runs) + " forced runs";
      } else {
        text += "fails " + std::to_string(r.failed) + "/" + std::to_string(r.completed) + " runs where the order completed (" +
                std::to_string(r.forced_runs) + " forced)";
        if (r.opposite_forced) {
          text += "; the opposite order fails " + std::to_string(r.opposite_failed) + "/" +
                  std::to_string(r.opposite_completed) +
                  (r.opposite_completed < kMinCompletedRuns
                       ? " (too few completed to compare)"
                       : " (one-sided Fisher p = " + p_text(r.p_opposite) +
                             (r.p_opposite < kVerdictAlpha ? " < " : ", not < ") + p_text(kVerdictAlpha) + ")");
        }
      }
      if (r.context_lost > 0) {
        text += ", " + std::to_string(r.context_lost) + " left the failing run before the order (the first " +
                r.context_lost_what + ")";
      }
      text += "\n";
    }
    text += render_counterfactual(c->counterfactual, indent + "  ");
    for (const HalfControl& h : c->halves) {
      text += indent + "  one pair reversed, the other kept (" + h.order + "): ";
      if (h.completed < kMinCompletedRuns) {
        text += "completed in " + std::to_string(h.completed) + "/" + std::to_string(h.forced_runs) +
                " forced runs, no control\n";
        continue;
      }
      text += "fails " + std::to_string(h.failed) + "/" + std::to_string(h.completed) + " where it completed (" +
              std::to_string(h.forced_runs) + " forced); one-sided Fisher p = " + p_text(h.p_lower) +
              (h.needed       ? " < " + p_text(kCounterfactualAlpha) + ": that pair is needed\n"
               : h.not_needed ? ", not < " + p_text(kCounterfactualAlpha) + "; the reversed order itself happened in " +
                                    std::to_string(h.completed_in_order) + " of them, " +
                                    std::to_string(h.failed_in_order) + " failing: that pair is not needed\n"
                              : ", not < " + p_text(kCounterfactualAlpha) + ": not shown to be needed\n");
    }
    if (!c->replay_command.empty() && c->failed > 0) text += indent + "  replay: " + c->replay_command + "\n";
    return text;
  }

  // confirmed / refuted / unrealized / inconclusive: decide_verdict on the completed runs
  // (verdict.h, docs/forcing.md).
  std::string verdict_name(std::size_t id) const {
    const ConfirmationResult* c = result(id);
    if (c == nullptr || c->forced_runs == 0) return "not forced";
    return std::string(driver::verdict_name(c->verdict));
  }

  nlohmann::json json(std::size_t id) const {
    const ConfirmationResult* c = result(id);
    if (c == nullptr) return nlohmann::json();
    nlohmann::json j = confirmation_json(*c);
    j["verdict"] = verdict_name(id);
    return j;
  }

  bool failure_seen() const { return original_.has_value(); }

 private:
  const LaunchTarget& target_;
  const Report& report_;
  const LocalizeSettings& settings_;
  const ClassifyContext& context_;
  const std::string& target_name_;
  const LockCycle* lock_cycle_ = nullptr;
  std::optional<FailureIdentity> original_;
  SourceLocation failure_where_;  // file and line of the first failure, when known
  double baseline_ = 0;
  std::vector<Suspect> suspects_;
  const localize::Trace* reference_ = nullptr;
  std::optional<std::vector<std::uint8_t>> context_log_;  // the reference run's decisions, encoded
  RunSpec context_spec_;
  std::uint64_t context_seed_ = 0;
  std::set<std::uint64_t> passing_sites_;
  bool any_passing_ = false;
  const localize::FalconRanking* falcon_ = nullptr;
  const std::map<std::uint64_t, std::uint64_t>* statement_of_ = nullptr;  // merge_by_statement's map

  // Whether the order of `pair` is two adjacent steps of `triple` (a window that found a triple
  // reports it instead of its pairs, so a pair's own count misses the runs that had the triple).
  static bool contains_pair(const localize::FalconPatternId& triple, const localize::FalconPatternId& pair) {
    if (falcon_kind_length(triple.kind) != 3 || falcon_kind_length(pair.kind) != 2 || falcon_kind_is_sync(pair.kind)) return false;
    const std::string t = falcon_kind_name(triple.kind), q = falcon_kind_name(pair.kind);
    for (std::uint32_t i = 0; i < 2; ++i) {
      if (triple.sites[i] == pair.sites[0] && triple.sites[i + 1] == pair.sites[1] && t[3 * i] == q[0] &&
          t[3 * (i + 1)] == q[3]) {
        return true;
      }
    }
    return false;
  }

  // The directive with its sites by statement, as the ranking counts them.
  ForceDirective by_statement(const ForceDirective& forced) const {
    ForceDirective directive = forced;
    for (std::uint32_t i = 0; statement_of_ != nullptr && i < directive.count && i < kMaxForceSteps; ++i) {
      const auto it = statement_of_->find(directive.steps[i].site);
      if (it != statement_of_->end()) directive.steps[i].site = it->second;
    }
    return directive;
  }

  // How often the exploration's runs had the order of `forced`, when Falcon saw it at all
  // (ConfirmRequest::exploration).
  std::optional<ExplorationCounts> exploration_counts(const ForceDirective& forced) const {
    if (falcon_ == nullptr) return std::nullopt;
    const ForceDirective directive = by_statement(forced);
    for (const localize::RankedFalconPattern& p : falcon_->patterns) {
      if (!same_directive(falcon_directive(p.id), directive)) continue;
      // A cut-short order's read is its first site (add_orders_cut_short makes only R1-W2s).
      const bool read_fails = p.failed_cut_short > 0 && at_failing_statement(p.id.sites[0]);
      return driver::exploration_counts(p.failed, p.failed_cut_short, falcon_->total_failed, p.passed,
                                        falcon_->total_passed, read_fails);
    }
    return std::nullopt;
  }

  // The site is on the source line the first failure was reported at (an assertion, a crash);
  // true when the site cannot be named. A failure with no line (an exit status) has no statement.
  bool at_failing_statement(std::uint64_t site) const {
    if (names_ == nullptr) return true;
    if (failure_where_.line == 0 || failure_where_.file.empty()) return false;
    const SourceLocation where = names_->source(site);
    return where.line == failure_where_.line &&
           std::filesystem::path(where.file).filename() == std::filesystem::path(failure_where_.file).filename();
  }

  // Why `directive` is an order the exploration saw only in passing runs, or "".
  std::string passing_only_reason(const ForceDirective& forced) const {
    if (falcon_ == nullptr || falcon_->total_failed == 0) return "";
    const ForceDirective directive = by_statement(forced);
    for (const localize::RankedFalconPattern& p : falcon_->patterns) {
      if (p.failed != 0 || p.passed == 0 || !same_directive(falcon_directive(p.id), directive)) continue;
      const bool in_a_failing_triple = std::any_of(falcon_->patterns.begin(), falcon_->patterns.end(), [&](const auto& q) {
        return q.failed > 0 && contains_pair(q.id, p.id);
      });
      if (in_a_failing_triple) return "";
      return "the exploration saw this order in " + std::to_string(p.passed) + " passing runs and in none of the " +
             std::to_string(falcon_->total_failed) +
             " failing ones, so the forced runs that fail do not show what the order does: the holds make them fail";
    }
    return "";
  }
  const RecordNames* names_ = nullptr;
};

}  // namespace

void configure_localizing_run(RunConfig& config, const LocalizeSettings& settings) {
  config.collectors |= kCollectAccessPairs | kCollectFalcon | kCollectSpectra;
  config.falcon_window = settings.window;
}

void LocalizationData::add(std::uint64_t index, const RunRecord& record, bool failed, Symbolizer& symbolizer) {
  if (record.instrumented) instrumented_ = true;
  // Runs finish in any order (-j); the names come from the lowest seed's record, so the report
  // does not depend on which run finished first.
  if (!names_ || index < names_index_) {
    names_.emplace(record, symbolizer.function(), [&symbolizer](const std::string& module, std::uint64_t offset) {
      return symbolizer.data_symbol(module, offset);
    });
    names_index_ = index;
  }
  // A run stopped at --max-steps did not get to its end: it is evidence neither way.
  if (static_cast<ShimOutcome>(record.outcome) == ShimOutcome::Unfinished) return;
  if (failed && static_cast<ShimOutcome>(record.outcome) == ShimOutcome::Deadlock &&
      (!lock_cycle_ || index < lock_cycle_index_)) {
    if (auto cycle = find_lock_cycle(record.deadlock)) {
      lock_cycle_ = std::move(cycle);
      lock_cycle_index_ = index;
    }
  }
  falcon_[static_cast<std::size_t>(index)] = read_falcon_run(record, failed, *names_);
  if (!failed) {
    any_passing_ = true;
    const auto* pairs = reinterpret_cast<const AccessPairSummary*>(reinterpret_cast<const std::uint8_t*>(&record) +
                                                                    kSummaryOffset);
    if (pairs->magic == kAccessPairsMagic) {
      for (std::uint32_t i = 0; i < std::min(pairs->used, kMaxAccessPairs); ++i) {
        passing_sites_.insert(pairs->pairs[i].head_site);
        passing_sites_.insert(pairs->pairs[i].tail_site);
      }
    }
  }
  spectra_[static_cast<std::size_t>(index)] = read_spectra_run(record, failed);
}

void LocalizationData::add_stored(std::uint64_t index, bool failed, bool instrumented,
                                  std::optional<localize::FalconRun> falcon,
                                  std::optional<localize::SpectraRun> spectra, const std::optional<AccessPairs>& pairs) {
  if (instrumented) instrumented_ = true;
  falcon_[static_cast<std::size_t>(index)] = std::move(falcon);
  spectra_[static_cast<std::size_t>(index)] = std::move(spectra);
  if (failed) return;
  any_passing_ = true;
  if (pairs) {
    for (const AccessPairResult& pair : pairs->pairs) {
      passing_sites_.insert(pair.head_site);
      passing_sites_.insert(pair.tail_site);
    }
  }
}

LocalizationReport run_localization(const LaunchTarget& target, const Report& report, const LocalizationData& data,
                                    const LocalizeSettings& settings, const ClassifyContext& context,
                                    const std::string& target_name) {
  LocalizationReport out;
  std::string& text = out.text;
  nlohmann::ordered_json& json = out.json;
  json["instrumented"] = data.instrumented();
  if (!data.instrumented() || !data.names()) {
    text += "Localization: no shared-memory access was recorded. Build the test with ctrlsched's "
            "instrumentation (ctrlsched_instrument(), docs/instrumentation.md) to localize.\n";
    return out;
  }
  const RecordNames& names = *data.names();
  const std::vector<RunResult>& runs = report.runs;
  const std::size_t reported = runs.size();
  std::optional<std::size_t> first_failing;
  for (std::size_t i = 0; i < reported; ++i) {
    if (runs[i].failed()) {
      first_failing = i;
      break;
    }
  }
  Confirmer confirmer(target, report, settings, context, target_name);

  // 1. Falcon over every run, and over Locon's data set (one failure + passing runs) for comparison.
  std::vector<localize::FalconRun> falcon_all;
  for (std::size_t i = 0; i < reported; ++i) {
    if (data.falcon()[i]) falcon_all.push_back(*data.falcon()[i]);
  }
  std::vector<std::size_t> locon_set;  // the failing run first, then the passing runs
  if (first_failing) {
    locon_set.push_back(*first_failing);
    for (std::size_t i = 0; i < reported && locon_set.size() <= settings.locon_passing; ++i) {
      if (runs[i].passed() && runs[i].access_pairs) locon_set.push_back(i);
    }
  }
  // A deadlock or a hang is a state of the synchronization: at equal scores its sync orders
  // explain it before the memory accesses that led there. Any other failure is ranked over
  // memory patterns only, as before sync operations were collected: there a lock order is the
  // scheduling of critical sections, which outscored the accesses it orders (atomicity_multi_var,
  // docs/localization.md).
  const bool sync_first = first_failing && (runs[*first_failing].kind == OutcomeKind::Deadlock ||
                                            runs[*first_failing].kind == OutcomeKind::Hang);
  if (!sync_first) {
    for (localize::FalconRun& run : falcon_all) std::erase_if(run.patterns, is_sync_sighting);
  }
  // One source statement, one site: a line compiled twice (inlined into two callers) is one
  // statement of the interleaving (localize::merge_by_statement).
  const std::map<std::uint64_t, std::uint64_t> statement_of = statement_sites(falcon_all, names);
  // A read the run's end came before a write (an order violation whose read crashes or exits):
  // the R1-W2 order the window could not see (localize::add_orders_cut_short), by statement.
  localize::add_orders_cut_short(falcon_all, statement_of);
  localize::merge_by_statement(falcon_all, statement_of);
  localize::FalconRanking falcon = rank_falcon(falcon_all, settings.score, sync_first);
  // Symptoms (symptoms.h) go after every other pattern and are never confirmed.
  std::set<std::uint64_t> passing = passing_sites(falcon_all);
  passing.insert(data.passing_sites().begin(), data.passing_sites().end());
  // A statement ran in a passing run when any of its sites did: the ranking names statements, a
  // directive the pcs of one example (symptoms.h).
  for (const auto& [site, statement] : statement_of) {
    if (passing.contains(site)) passing.insert(statement);
  }
  for (const auto& [site, statement] : statement_of) {
    if (passing.contains(statement)) passing.insert(site);
  }
  const bool any_passing = data.any_passing();
  const std::vector<bool> falcon_symptom = demote_symptoms(falcon, passing, any_passing, sync_first);
  // The reference failing run, traced: forced roles are bound to its threads and occurrences.
  std::optional<TracedRun> reference;
  if (first_failing && settings.confirm) {
    const RunSpec spec = seed_spec(report.header, runs[*first_failing].seed);
    reference = run_traced(target, spec, settings.timeout_seconds, target_name);
  }
  confirmer.set_reference(reference ? &reference->trace : nullptr, std::move(passing), any_passing, &names);
  if (reference && reference->schedule && reference->result.failed()) {
    confirmer.set_context(*reference->schedule, seed_spec(report.header, runs[*first_failing].seed));
  }
  confirmer.set_falcon(&falcon, &statement_of);
  std::vector<std::size_t> falcon_suspects;
  if (first_failing) {
    for (const auto& pattern : falcon.patterns) {
      // Zero-scored patterns (never in a failing run) are forced too when they make the top:
      // forcing refutes them explicitly instead of leaving a bare 0.00 without a verdict.
      if (falcon_suspects.size() == settings.top) break;
      const localize::FalconSighting& example = pattern.example;
      // Forced at the program counters of its example: a directive matches pending accesses.
      localize::FalconPatternId at_pcs = pattern.id;
      at_pcs.sites = example.forcing_sites();
      falcon_suspects.push_back(confirmer.add(
          falcon_directive(at_pcs),
          example.location_name.empty() ? names.location(example.location) : example.location_name));
    }
  }

  // 2. Locon on one failing run.
  std::vector<localize::locon::Finding> findings;
  std::optional<std::size_t> locon_suspect;
  std::vector<RunResult> locon_runs;
  if (first_failing) {
    for (std::size_t i : locon_set) locon_runs.push_back(runs[i]);
    if (auto input = locon_input(locon_runs, 0)) {
      // What the failed run executed (the Falcon collector's table), for procedure II.
      if (const auto& falcon_run = data.falcon()[*first_failing]; falcon_run && falcon_run->executed) {
        std::vector<std::pair<std::uint64_t, bool>> executed;
        for (const localize::ExecutedAccess& a : *falcon_run->executed) {
          if (!a.sync) executed.emplace_back(a.site, a.write);
        }
        std::sort(executed.begin(), executed.end());
        input->failed.executed = std::move(executed);
      }
      localize::locon::Options options;
      options.procedure = settings.procedure;
      options.failed_run_deadlocked = runs[*first_failing].kind == OutcomeKind::Deadlock;
      // Memory pairs first unless the failure is a deadlock or a hang; the sync pairs join when
      // they alone explain it (a deadlocked run may have no memory pair at all).
      if (!sync_first) {
        const LoconInput memory = without_sync_pairs(*input);
        findings = localize::locon::localize(memory.failed, memory.passing, options);
      }
      if (findings.empty()) findings = localize::locon::localize(input->failed, input->passing, options);
      if (!findings.empty()) {
        if (auto directive = locon_directive(findings.front())) {
          // At pc level the finding does not say which thread starts its second pair: the
          // reference failing run, which has both pairs, does. An occurrence the run's end cut
          // short does not count: that run does not have the pairs.
          const auto other = second_pair_from_first_thread(*directive);
          const auto has_pairs = [&](const ForceDirective& d) {
            const auto occurrence = last_occurrence(d, reference->trace, &statement_of);
            return occurrence && !occurrence->cut_short;
          };
          if (other && reference && !has_pairs(*directive) && has_pairs(*other)) {
            directive = other;
          }
          locon_suspect = confirmer.add(*directive);
        }
      }
    }
  }

  // 3. ConSeq: from a passing run when nothing failed (a warning before any failure), else from the
  // first failing run's trace.
  PredictSettings predict_settings;
  predict_settings.failure_sites = settings.failure_sites;
  predict_settings.max_distance = settings.max_distance;
  predict_settings.hold_limit = kLocalizeHoldLimit;
  const RunSpec traced =
      seed_spec(report.header, first_failing ? runs[*first_failing].seed : report.header.seed_start);
  const Prediction prediction =
      predict_from_run(target, traced, settings.timeout_seconds, target_name, predict_settings);
  std::vector<std::size_t> prediction_suspects;
  const std::size_t predictions_to_force = first_failing ? 1 : settings.top;
  for (const PredictedOrder& order : prediction.orders) {
    if (prediction_suspects.size() == predictions_to_force) break;
    prediction_suspects.push_back(confirmer.add(order.directive));
  }
  // The lock-order cycle is forced as a whole too (lock_cycle_directive: up to four threads).
  std::optional<std::size_t> cycle_suspect;
  if (data.lock_cycle()) {
    confirmer.set_lock_cycle(&*data.lock_cycle());
    if (const auto directive = lock_cycle_directive(*data.lock_cycle(), kLocalizeHoldLimit)) {
      cycle_suspect = confirmer.add(reference ? order_as_in_trace(*directive, *data.lock_cycle(), reference->trace)
                                              : *directive);
    }
  }

  // 4. Block spectra: the runs so far, plus directed runs with --spectra.
  std::vector<localize::SpectraRun> spectra_runs;
  for (std::size_t i = 0; i < reported; ++i) {
    if (data.spectra()[i]) spectra_runs.push_back(*data.spectra()[i]);
  }
  std::uint64_t directed_runs = 0, directed_failures = 0;
  std::uint32_t levels_run = 0;
  const std::uint32_t max_level = settings.spectra_levels;
  const std::uint64_t budget = report.header.seeds_requested;
  for (std::uint32_t level = 1; level <= max_level; ++level) {
    const auto ranking = localize::rank_spectra(spectra_runs);
    std::uint32_t failing_runs = 0;
    for (const auto& run : spectra_runs) failing_runs += run.failed;
    if (level > 1 && localize::spectra_significant(ranking, failing_runs)) break;
    const std::vector<std::uint64_t> candidates = localize::spectra_candidates(spectra_runs);
    if (candidates.empty()) break;
    const std::uint64_t per_directive =
        std::clamp<std::uint64_t>(budget / candidates.size(), 1, kSpectraSeedsPerDirective);
    const auto plan = localize::plan_spectra_level(candidates, level, static_cast<std::uint32_t>(per_directive), budget);
    ++levels_run;
    for (const auto& planned : plan) {
      DirectedBatch batch;
      batch.base = directed_base_spec(report.header);
      batch.seeds = planned.seeds;
      batch.directive = planned.directive;
      batch.collectors = kCollectSpectra;
      batch.jobs = settings.jobs;
      batch.timeout_seconds = settings.timeout_seconds;
      std::vector<std::optional<localize::SpectraRun>> batch_spectra(planned.seeds);
      const auto results = run_directed(target, batch, context, target_name,
                                        [&](std::uint64_t index, const RunRecord& record, const RunResult& result) {
                                          batch_spectra[static_cast<std::size_t>(index)] =
                                              read_spectra_run(record, result.failed());
                                        });
      for (std::size_t i = 0; i < results.size(); ++i) {
        ++directed_runs;
        directed_failures += results[i].result.failed();
        if (batch_spectra[i]) spectra_runs.push_back(std::move(*batch_spectra[i]));
      }
    }
    std::uint32_t failing_now = 0;
    for (const auto& run : spectra_runs) failing_now += run.failed;
    if (localize::spectra_significant(localize::rank_spectra(spectra_runs), failing_now)) break;
  }
  const auto spectra = localize::rank_spectra(spectra_runs);
  std::uint32_t spectra_failing = 0;
  for (const auto& run : spectra_runs) spectra_failing += run.failed;
  const auto spectra_passing = static_cast<std::uint32_t>(spectra_runs.size()) - spectra_failing;

  // 5. Force the suspects.
  confirmer.run_all();

  // Text.
  text += "\nLocalization · " + std::to_string(reported) + " runs, " + std::to_string(report.failures()) +
          " failing\n";
  if (data.lock_cycle()) {
    // The deadlock itself says which lock orders make the cycle (docs/localization.md).
    text += "Lock-order cycle (deadlock of seed " + std::to_string(runs[data.lock_cycle_index()].seed) + ")\n";
    for (const std::string& line : render_lock_cycle_text(*data.lock_cycle(), names)) text += "  " + line + "\n";
    if (cycle_suspect) text += confirmer.render(*cycle_suspect, "    ");
  }
  if (first_failing) {
    text += "Most suspicious interleavings (Falcon, " + std::string(to_string(falcon.score)) + ", window " +
            std::to_string(settings.window) + "; " + std::to_string(falcon.patterns.size()) + " patterns" +
            fixed_orders_note(falcon.fixed_by_lifecycle) + ")\n";
    const auto lines = render_falcon_text(falcon, names, kShownPatterns);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      text += lines[i] + (i < falcon_symptom.size() && falcon_symptom[i] ? "   (symptom: failure path only)" : "") + "\n";
      if (i < falcon_suspects.size()) text += confirmer.render(falcon_suspects[i], "        ");
    }
    if (falcon.patterns.empty()) text += "  (no pattern: no location was shared by two threads)\n";
    text += "Access pairs (Locon: seed " + std::to_string(runs[*first_failing].seed) + " against " +
            std::to_string(locon_set.size() - 1) + " passing runs)\n";
    const RunSiteNames site_names_of_runs = site_names(locon_runs);
    std::string block = findings_text(findings, site_names_of_runs);
    text += block;
    if (!block.empty() && block.back() != '\n') text += "\n";
    if (locon_suspect) {
      // Only the first finding is forced; with several, say which one the verdict belongs to.
      const std::string indent = "        ";
      std::string verdict = confirmer.render(*locon_suspect, indent);
      if (findings.size() > 1 && !verdict.empty()) verdict.insert(indent.size(), "finding 1 ");
      text += verdict;
    }
  } else {
    text += "No seed failed: nothing to rank. Predicting harmful orders from a passing run instead.\n";
  }
  if (prediction.orders.empty() && prediction.problem.empty()) {
    // Say so: silence would read as "ConSeq was not run" (e.g. a read that crashed before any
    // write to its location leaves no write to reorder).
    text += "ConSeq: no harmful write→read order predicted from " +
            std::string(first_failing ? "the failing run " : "the passing run ") + prediction.handle + " (" +
            std::to_string(prediction.critical_reads) + " critical reads)\n";
  }
  if (!prediction.orders.empty() || !prediction.problem.empty()) {
    text += render_prediction(prediction);
    if (!text.empty() && text.back() != '\n') text += "\n";
    for (std::size_t i = 0; i < prediction_suspects.size(); ++i) {
      text += confirmer.render(prediction_suspects[i], "        ", "#" + std::to_string(i + 1) + " ");
    }
  }
  if (spectra_failing > 0) {
    text += "Block spectra (SCURF, modified Ochiai; " + std::to_string(spectra_runs.size()) + " runs";
    if (directed_runs > 0) {
      text += " incl. " + std::to_string(directed_runs) + " directed runs (level " +
              (levels_run > 1 ? "1-" + std::to_string(levels_run) : std::string("1")) + ", " +
              std::to_string(directed_failures) + " failing)";
    }
    text += ")\n";
    for (const std::string& line : render_spectra_text(spectra, spectra_failing, spectra_passing, names, kShownComponents))
      text += line + "\n";
  }

  // JSON.
  json["runs"] = reported;
  json["failing"] = report.failures();
  json["baseline_rate"] = reported ? static_cast<double>(report.failures()) / static_cast<double>(reported) : 0.0;
  if (data.lock_cycle()) {
    nlohmann::ordered_json cycle = lock_cycle_json(*data.lock_cycle(), names);
    cycle["seed"] = runs[data.lock_cycle_index()].seed;
    if (cycle_suspect) cycle["confirmation"] = confirmer.json(*cycle_suspect);
    json["lock_cycle"] = std::move(cycle);
  }
  if (first_failing) {
    nlohmann::ordered_json falcon_object = falcon_json(falcon, names);
    for (std::size_t i = 0; i < falcon_symptom.size() && i < falcon_object["patterns"].size(); ++i) {
      falcon_object["patterns"][i]["symptom"] = static_cast<bool>(falcon_symptom[i]);
    }
    for (std::size_t i = 0; i < falcon_suspects.size() && i < falcon_object["patterns"].size(); ++i) {
      falcon_object["patterns"][i]["confirmation"] = confirmer.json(falcon_suspects[i]);
    }
    json["falcon"] = std::move(falcon_object);
    std::vector<localize::FalconRun> falcon_locon_set;
    for (std::size_t i : locon_set) {
      if (!data.falcon()[i]) continue;
      falcon_locon_set.push_back(*data.falcon()[i]);
      if (!sync_first) std::erase_if(falcon_locon_set.back().patterns, is_sync_sighting);
    }
    const std::map<std::uint64_t, std::uint64_t> locon_set_statements = statement_sites(falcon_locon_set, names);
    localize::add_orders_cut_short(falcon_locon_set, locon_set_statements);
    localize::merge_by_statement(falcon_locon_set, locon_set_statements);
    json["falcon_one_failure"] = falcon_json(rank_falcon(falcon_locon_set, settings.score, sync_first), names);
    nlohmann::ordered_json locon;
    locon["failing_seed"] = runs[*first_failing].seed;
    locon["passing_runs"] = locon_set.size() - 1;
    locon["findings"] = findings_json(findings, site_names(locon_runs));
    if (locon_suspect && !locon["findings"].empty()) locon["findings"][0]["confirmation"] = confirmer.json(*locon_suspect);
    json["locon"] = std::move(locon);
  }
  nlohmann::ordered_json predicted = prediction_json(prediction);
  for (std::size_t i = 0; i < prediction_suspects.size(); ++i) {
    predicted["confirmations"].push_back(nlohmann::ordered_json(confirmer.json(prediction_suspects[i])));
  }
  json["prediction"] = std::move(predicted);
  nlohmann::ordered_json spectra_object = spectra_json(spectra, spectra_failing, spectra_passing, names);
  spectra_object["directed_runs"] = directed_runs;
  spectra_object["directed_failing"] = directed_failures;
  spectra_object["levels"] = levels_run;
  json["spectra"] = std::move(spectra_object);
  return out;
}

}  // namespace ctrlsched::driver

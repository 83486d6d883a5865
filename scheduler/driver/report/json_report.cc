// JSON rendering of a seeds run (see json_report.h and docs/json-schema.md).
#include "report/json_report.h"

namespace ctrlsched::driver {
namespace {

using Json = nlohmann::ordered_json;

Json optional_number(bool present, std::uint64_t value) { return present ? Json(value) : Json(nullptr); }

Json profile_json(const RunProfile& profile) {
  return Json{{"pct_steps", profile.steps}, {"surw_events", profile.events}};
}

Json failure_json(const FailureDetails& f) {
  Json j;
  j["kind"] = to_string(f.kind);
  j["message"] = f.message;
  j["file"] = f.file.empty() ? Json(nullptr) : Json(f.file);
  j["line"] = f.line ? Json(f.line) : Json(nullptr);
  j["function"] = f.function.empty() ? Json(nullptr) : Json(f.function);
  j["stack"] = f.stack;
  j["details"] = f.details;
  return j;
}

}  // namespace

nlohmann::ordered_json report_json(const Report& report) {
  const ReportHeader& h = report.header;
  const RunSpec& spec = h.spec;
  const bool pct = spec.strategy == StrategyKind::Pct;
  Json root;
  root["schema"] = kJsonSchema;

  Json& summary = root["summary"];
  summary["seeds"] = report.runs.size();
  summary["seeds_requested"] = h.seeds_requested;
  summary["stopped_early"] = h.stopped_early;
  summary["interrupted"] = h.interrupted;
  summary["failures"] = report.failures();
  summary["elapsed_s"] = h.elapsed_seconds;
  summary["strategy"] = to_string(spec.strategy);
  summary["depth"] = optional_number(pct, spec.pct_depth);
  summary["pct_steps"] = optional_number(pct, spec.pct_steps);
  summary["pct_steps_calibrated"] = pct && h.pct_steps_calibrated;
  if (pct && h.pct_calibration_reached_limit) summary["pct_calibration_reached_limit"] = true;
  summary["preemption_bound"] = optional_number(spec.preemption_bound.has_value(), spec.preemption_bound.value_or(0));
  if (spec.strategy == StrategyKind::Surw) {
    summary["surw_events"] = spec.surw_events;
    summary["surw_uniform"] = spec.surw_uniform_percent;
  }
  if (h.portfolio) {  // what each seed's spec is resolved from (runs/portfolio.h)
    summary["portfolio"] = Json{{"calibrated", profile_json(h.portfolio->profile)},
                                {"sync", h.portfolio->sync ? profile_json(*h.portfolio->sync) : Json(nullptr)}};
  }
  summary["max_steps"] = spec.max_steps;
  summary["points"] = spec.points == PointsMode::Sync ? "sync" : spec.points == PointsMode::Accesses ? "accesses" : "auto";
  summary["spurious_wakeups"] = spec.spurious_wakeups;
  summary["seed_start"] = h.seed_start;
  summary["target"] = h.test.target;
  summary["args"] = h.test.args;
  if (h.shard_count != 0) summary["shard"] = Json{{"index", h.shard_index}, {"count", h.shard_count}};

  Json& outcomes = root["outcomes"];
  for (OutcomeKind kind : kAllOutcomeKinds) outcomes[std::string(to_string(kind))] = at(report.counts, kind);

  Json groups = Json::array();
  for (const FailureGroup& group : report.groups) {
    const RunResult& first = report.runs[group.first];
    Json g;
    g["kind"] = to_string(group.kind);
    const FailureDetails empty;
    const FailureDetails& f = first.failure ? *first.failure : empty;
    g["message"] = f.message;
    g["file"] = f.file.empty() ? Json(nullptr) : Json(f.file);
    g["line"] = f.line ? Json(f.line) : Json(nullptr);
    g["function"] = f.function.empty() ? Json(nullptr) : Json(f.function);
    g["signature"] = group.signature;
    g["count"] = group.count;
    g["first_seed"] = first.seed;
    g["replay"] = group.replay;
    g["output_tail"] = first.output_tail;
    groups.push_back(std::move(g));
  }
  root["groups"] = std::move(groups);

  Json runs = Json::array();
  for (const RunResult& run : report.runs) {
    Json r;
    r["seed"] = run.seed;
    r["outcome"] = run.failed() ? "fail" : run.passed() ? "pass" : "unfinished";
    r["kind"] = to_string(run.kind);
    if (run.failure) r["failure"] = failure_json(*run.failure);
    r["handle"] = run.handle;
    r["replay"] = replay_command(run.handle, h.test);
    r["schedule_hash"] = format_hash(run.schedule_hash);
    r["steps"] = run.steps;
    r["decisions"] = run.decisions;
    r["preemptions"] = run.preemptions;
    r["threads"] = run.threads;
    if (!run.note.empty()) r["note"] = run.note;
    if (run.access_pairs) {
      Json pairs = Json::array();
      for (const AccessPairResult& p : run.access_pairs->pairs)
        pairs.push_back(Json{{"head", p.head},
                             {"tail", p.tail},
                             {"count", p.count},
                             {"head_thread", p.head_thread},
                             {"tail_thread", p.tail_thread},
                             {"head_iteration", p.head_iteration},
                             {"tail_iteration", p.tail_iteration},
                             {"head_site", p.head_site},
                             {"tail_site", p.tail_site},
                             {"head_access", p.head_access},
                             {"tail_access", p.tail_access},
                             {"location", p.location}});
      r["access_pairs"] = Json{{"accesses", run.access_pairs->accesses},
                               {"locations", run.access_pairs->locations},
                               {"untracked", run.access_pairs->untracked},
                               {"dropped", run.access_pairs->dropped},
                               {"pairs", std::move(pairs)}};
    }
    runs.push_back(std::move(r));
  }
  root["runs"] = std::move(runs);
  return root;
}

std::string render_json(const Report& report) {
  // Test output and messages may hold invalid UTF-8: replace it rather than throw.
  return report_json(report).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ctrlsched::driver

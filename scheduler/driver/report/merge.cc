// Merging shard reports (see merge.h).
#include "report/merge.h"

#include <algorithm>
#include <map>
#include <set>

#include "exit_codes.h"
#include "report/json_report.h"

namespace ctrlsched::driver {
namespace {

using Json = nlohmann::ordered_json;

// Summary fields that differ between the shards of one run by design.
const std::set<std::string> kPerShardSummary = {"seeds", "failures", "elapsed_s", "shard", "stopped_early"};

[[noreturn]] void bad(const ShardReport& shard, const std::string& what) { usage_error("merge: " + shard.name + ": " + what); }

const Json& field(const ShardReport& shard, const Json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key)) bad(shard, "no " + where + key + " (not a ctrlsched-run/1 report?)");
  return object[key];
}

std::uint64_t number(const ShardReport& shard, const Json& object, const char* key, const std::string& where) {
  const Json& value = field(shard, object, key, where);
  if (!value.is_number_unsigned()) bad(shard, where + key + " is not a whole number");
  return value.get<std::uint64_t>();
}

std::string text(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::uint32_t> event_counts(const ShardReport& shard, const Json& value, const std::string& where) {
  std::vector<std::uint32_t> counts;
  if (!value.is_array() || value.empty()) bad(shard, where + " is not a non-empty array");
  for (const Json& item : value) {
    if (!item.is_number_unsigned() || item.get<std::uint64_t>() > 0xffffffffu) bad(shard, where + " holds a bad count");
    counts.push_back(item.get<std::uint32_t>());
  }
  return counts;
}

RunProfile profile_of(const ShardReport& shard, const Json& object, const std::string& where) {
  RunProfile profile;
  profile.steps = number(shard, object, "pct_steps", where);
  profile.events = event_counts(shard, field(shard, object, "surw_events", where), where + "surw_events");
  profile.instrumented = true;  // not reported; only the calibration's results matter here
  return profile;
}

OutcomeKind kind_of(const ShardReport& shard, const std::string& name) {
  for (OutcomeKind kind : kAllOutcomeKinds) {
    if (to_string(kind) == name) return kind;
  }
  bad(shard, "unknown outcome kind '" + name + "'");
}

std::vector<std::string> strings(const Json& value) {
  std::vector<std::string> out;
  if (value.is_array()) {
    for (const Json& item : value) {
      if (item.is_string()) out.push_back(item.get<std::string>());
    }
  }
  return out;
}

// The fields of a run the text summary and the groups need (the JSON runs are kept as they are).
RunResult run_of(const ShardReport& shard, const Json& run) {
  RunResult r;
  r.seed = number(shard, run, "seed", "runs[].");
  r.kind = kind_of(shard, text(run, "kind"));
  r.handle = text(run, "handle");
  r.schedule_hash = parse_hash(text(run, "schedule_hash")).value_or(0);
  r.steps = run.value("steps", std::uint64_t{0});
  r.decisions = run.value("decisions", std::uint64_t{0});
  r.preemptions = run.value("preemptions", std::uint64_t{0});
  r.threads = run.value("threads", std::uint32_t{0});
  r.note = text(run, "note");
  if (const auto f = run.find("failure"); f != run.end() && f->is_object()) {
    FailureDetails details;
    details.kind = kind_of(shard, text(*f, "kind"));
    details.message = text(*f, "message");
    details.file = text(*f, "file");
    details.line = f->contains("line") && (*f)["line"].is_number_unsigned() ? (*f)["line"].get<std::uint32_t>() : 0;
    details.function = text(*f, "function");
    details.stack = strings(f->value("stack", Json::array()));
    details.details = strings(f->value("details", Json::array()));
    r.failure = std::move(details);
  }
  return r;
}

ReportHeader header_of(const ShardReport& shard, const Json& summary) {
  ReportHeader h;
  h.seed_start = number(shard, summary, "seed_start", "summary.");
  h.seeds_requested = number(shard, summary, "seeds_requested", "summary.");
  RunSpec& spec = h.spec;
  const std::string strategy = text(summary, "strategy");
  if (strategy == "pct") {
    spec.strategy = StrategyKind::Pct;
    spec.pct_depth = static_cast<std::uint32_t>(number(shard, summary, "depth", "summary."));
    spec.pct_steps = number(shard, summary, "pct_steps", "summary.");
  } else if (strategy == "random") {
    spec.strategy = StrategyKind::Random;
  } else if (strategy == "pos") {
    spec.strategy = StrategyKind::Pos;
  } else if (strategy == "surw") {
    spec.strategy = StrategyKind::Surw;
    spec.surw_events = event_counts(shard, field(shard, summary, "surw_events", "summary."), "summary.surw_events");
    // Absent in reports written before --surw-uniform existed: those ran plain SURW.
    if (summary.contains("surw_uniform")) {
      spec.surw_uniform_percent = static_cast<std::uint32_t>(number(shard, summary, "surw_uniform", "summary."));
    }
  } else if (strategy == "portfolio") {
    spec.strategy = StrategyKind::Portfolio;
  } else {
    bad(shard, "unknown strategy '" + strategy + "'");
  }
  if (summary.contains("preemption_bound") && summary["preemption_bound"].is_number_unsigned()) {
    spec.preemption_bound = summary["preemption_bound"].get<std::uint32_t>();
  }
  spec.max_steps = number(shard, summary, "max_steps", "summary.");
  const std::string points = text(summary, "points");
  spec.points = points == "sync" ? PointsMode::Sync : points == "accesses" ? PointsMode::Accesses : PointsMode::Auto;
  spec.spurious_wakeups = summary.value("spurious_wakeups", false);
  h.pct_steps_calibrated = summary.value("pct_steps_calibrated", false);
  if (spec.strategy == StrategyKind::Portfolio) {
    const Json& portfolio = field(shard, summary, "portfolio", "summary.");
    Portfolio p;
    p.base = spec;
    p.profile = profile_of(shard, field(shard, portfolio, "calibrated", "summary.portfolio."), "summary.portfolio.calibrated.");
    if (const Json& sync = field(shard, portfolio, "sync", "summary.portfolio."); !sync.is_null()) {
      p.sync = profile_of(shard, sync, "summary.portfolio.sync.");
    }
    h.portfolio = std::move(p);
  }
  h.test.target = text(summary, "target");
  h.test.args = strings(summary.value("args", Json::array()));
  return h;
}

std::string shown(const Json& value) {
  std::string s = value.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

// The shards ordered by index, after checking they are exactly shards 1..N of one run.
std::vector<const ShardReport*> ordered_shards(const std::vector<ShardReport>& shards) {
  if (shards.empty()) usage_error("merge: no reports given");
  std::vector<const ShardReport*> by_index;
  std::uint64_t count = 0;
  for (const ShardReport& shard : shards) {
    if (!shard.json.is_object() || text(shard.json, "schema") != kJsonSchema) {
      bad(shard, std::string("not a ") + kJsonSchema + " report");
    }
    const Json& summary = field(shard, shard.json, "summary", "");
    if (!summary.is_object() || !summary.contains("shard")) {
      bad(shard, "not the report of a shard (summary.shard is missing: run with --shard K/N)");
    }
    const Json& id = summary["shard"];
    const std::uint64_t index = number(shard, id, "index", "summary.shard.");
    const std::uint64_t n = number(shard, id, "count", "summary.shard.");
    if (by_index.empty()) {
      count = n;
      if (n == 0 || n > (1u << 20)) bad(shard, "summary.shard.count " + std::to_string(n) + " is out of range");
      by_index.assign(static_cast<std::size_t>(n), nullptr);
    } else if (n != count) {
      bad(shard, "shard of " + std::to_string(n) + ", but " + shards.front().name + " is a shard of " + std::to_string(count));
    }
    if (index == 0 || index > count) bad(shard, "summary.shard.index " + std::to_string(index) + " is out of range");
    const ShardReport*& slot = by_index[static_cast<std::size_t>(index - 1)];
    if (slot) bad(shard, "shard " + std::to_string(index) + "/" + std::to_string(count) + " is also in " + slot->name);
    slot = &shard;
    if (summary.value("stopped_early", false)) bad(shard, "the shard stopped early; its seeds are incomplete");
  }
  std::string missing;
  for (std::size_t i = 0; i < by_index.size(); ++i) {
    if (!by_index[i]) missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1);
  }
  if (!missing.empty()) usage_error("merge: missing shard " + missing + " of " + std::to_string(count));
  return by_index;
}

// Every summary field that says what was run must be the same in every shard.
void check_same_run(const std::vector<const ShardReport*>& shards) {
  const ShardReport& first = *shards.front();
  const Json& reference = first.json["summary"];
  for (const ShardReport* shard : shards) {
    const Json& summary = shard->json["summary"];
    std::set<std::string> keys;
    for (const auto& [key, value] : reference.items()) keys.insert(key);
    for (const auto& [key, value] : summary.items()) keys.insert(key);
    for (const std::string& key : keys) {
      if (kPerShardSummary.count(key)) continue;
      const Json a = reference.contains(key) ? reference[key] : Json();
      const Json b = summary.contains(key) ? summary[key] : Json();
      if (a != b) {
        usage_error("merge: " + first.name + " and " + shard->name + " are not shards of one run: summary." + key + " is " +
                    shown(a) + " vs " + shown(b));
      }
    }
  }
}

}  // namespace

MergedReport merge_shard_reports(const std::vector<ShardReport>& input) {
  const std::vector<const ShardReport*> shards = ordered_shards(input);
  check_same_run(shards);
  const ShardReport& first_shard = *shards.front();
  MergedReport merged;
  Report& report = merged.report;
  report.header = header_of(first_shard, first_shard.json["summary"]);
  ReportHeader& h = report.header;
  h.merged_shards = shards.size();

  // The runs, in seed order; they must be exactly the requested seeds.
  std::vector<std::pair<std::uint64_t, const Json*>> runs;
  std::map<std::uint64_t, const ShardReport*> owner;
  for (const ShardReport* shard : shards) {
    h.elapsed_seconds = std::max(h.elapsed_seconds, shard->json["summary"].value("elapsed_s", 0.0));
    const Json& list = field(*shard, shard->json, "runs", "");
    if (!list.is_array()) bad(*shard, "runs is not a list");
    for (const Json& run : list) {
      const std::uint64_t seed = number(*shard, run, "seed", "runs[].");
      if (const auto [it, inserted] = owner.emplace(seed, shard); !inserted) {
        usage_error("merge: seed " + std::to_string(seed) + " is in both " + it->second->name + " and " + shard->name);
      }
      runs.emplace_back(seed, &run);
    }
  }
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (runs.size() != h.seeds_requested) {
    usage_error("merge: the shards hold " + std::to_string(runs.size()) + " seeds, the run asked for " +
                std::to_string(h.seeds_requested));
  }
  Json runs_json = Json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].first != h.seed_start + i) {
      usage_error("merge: seed " + std::to_string(h.seed_start + i) + " is in no shard (" + owner[runs[i].first]->name +
                  " has seed " + std::to_string(runs[i].first) + ")");
    }
    report.runs.push_back(run_of(*owner[runs[i].first], *runs[i].second));
    runs_json.push_back(*runs[i].second);
  }

  // Failure groups: one per signature, its first seed the lowest over the shards.
  struct Pending {
    FailureGroup group;
    std::uint64_t first_seed = 0;
    const Json* json = nullptr;
  };
  std::map<std::string, Pending> groups;
  for (const ShardReport* shard : shards) {
    const Json& list = field(*shard, shard->json, "groups", "");
    for (const Json& g : list) {
      const std::string signature = text(g, "signature");
      const std::uint64_t count = number(*shard, g, "count", "groups[].");
      const std::uint64_t first_seed = number(*shard, g, "first_seed", "groups[].");
      auto [it, inserted] = groups.try_emplace(signature);
      Pending& p = it->second;
      p.group.count += count;
      if (inserted || first_seed < p.first_seed) {
        p.first_seed = first_seed;
        p.json = &g;
        p.group.kind = kind_of(*shard, text(g, "kind"));
        p.group.signature = signature;
        p.group.replay = text(g, "replay");
      }
    }
  }
  for (auto& [signature, p] : groups) {
    p.group.first = static_cast<std::size_t>(p.first_seed - h.seed_start);
    if (p.first_seed < h.seed_start || p.group.first >= report.runs.size()) {
      usage_error("merge: group '" + signature + "' starts at seed " + std::to_string(p.first_seed) + ", outside the run");
    }
    RunResult& first = report.runs[p.group.first];
    first.output_tail = text(*p.json, "output_tail");
    if (first.failure) first.failure->signature = signature;
    report.groups.push_back(std::move(p.group));
  }
  std::sort(report.groups.begin(), report.groups.end(),
            [](const FailureGroup& a, const FailureGroup& b) { return a.first < b.first; });
  report.counts = count_outcomes(report.runs);

  // The merged JSON, in the key order of the shards' reports (which is the single run's order).
  const Json rendered = report_json(report);
  Json& out = merged.json;
  for (const auto& [key, value] : first_shard.json.items()) {
    if (key == "localization") {
      merged.warnings.push_back(
          "the shards' localization sections are not merged (each ranks its own shard's runs; run --localize on one "
          "machine for a localization of all seeds)");
    } else if (key == "runs") {
      out["runs"] = runs_json;
    } else if (key == "summary") {
      Json summary;
      for (const auto& [skey, svalue] : value.items()) {
        if (skey == "shard") continue;
        summary[skey] = rendered["summary"].contains(skey) ? rendered["summary"][skey] : svalue;
      }
      for (const auto& [skey, svalue] : rendered["summary"].items()) {
        if (!summary.contains(skey)) summary[skey] = svalue;
      }
      out["summary"] = std::move(summary);
    } else if (rendered.contains(key)) {
      out[key] = rendered[key];
    } else {
      bool same = true;
      for (const ShardReport* shard : shards) same = same && shard->json.contains(key) && shard->json[key] == value;
      if (same) {
        out[key] = value;
      } else {
        merged.warnings.push_back("'" + key + "' differs between the shards and is left out of the merged report");
      }
    }
  }
  return merged;
}

}  // namespace ctrlsched::driver

// JSON forms of stored runs and summaries (see run_codec.h).
#include "store/run_codec.h"

#include <algorithm>
#include <iterator>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

using StoreJson = nlohmann::json;

[[noreturn]] void corrupt(const std::string& what) {
  throw DriverError(ExitCode::BadStore, "the store holds a corrupt " + what);
}

StoreJson parse(const std::string& text, const char* what) {
  StoreJson j = StoreJson::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) corrupt(what);
  return j;
}

OutcomeKind kind_named(const std::string& name) {
  for (OutcomeKind kind : kAllOutcomeKinds) {
    if (to_string(kind) == name) return kind;
  }
  corrupt("outcome kind '" + name + "'");
}

template <class T>
T get(const StoreJson& j, const char* key, const char* what) {
  const auto it = j.find(key);
  if (it == j.end()) corrupt(std::string(what) + " (no " + key + ")");
  try {
    return it->get<T>();
  } catch (const StoreJson::exception&) {
    corrupt(std::string(what) + " (" + key + ")");
  }
}

}  // namespace

std::string encode_run_result(const RunResult& r) {
  StoreJson j;
  j["seed"] = r.seed;
  j["kind"] = to_string(r.kind);
  j["handle"] = r.handle;
  j["schedule_hash"] = r.schedule_hash;
  j["steps"] = r.steps;
  j["decisions"] = r.decisions;
  j["preemptions"] = r.preemptions;
  j["threads"] = r.threads;
  j["output_tail"] = r.output_tail;
  j["note"] = r.note;
  if (r.failure) {
    const FailureDetails& f = *r.failure;
    j["failure"] = {{"kind", to_string(f.kind)}, {"message", f.message},   {"file", f.file},
                    {"line", f.line},            {"function", f.function}, {"stack", f.stack},
                    {"details", f.details},      {"signature", f.signature}};
  }
  if (r.access_pairs) {
    const AccessPairs& a = *r.access_pairs;
    StoreJson pairs = StoreJson::array();
    for (const AccessPairResult& p : a.pairs) {
      pairs.push_back(StoreJson::array({p.head, p.tail, p.count, p.head_site, p.tail_site, p.head_write, p.tail_write,
                                   p.head_thread, p.tail_thread, p.head_iteration, p.tail_iteration, p.head_access,
                                   p.tail_access, p.location, p.head_sync, p.tail_sync}));
    }
    j["access_pairs"] = {{"accesses", a.accesses}, {"locations", a.locations}, {"untracked", a.untracked},
                         {"dropped", a.dropped},   {"pairs", std::move(pairs)}};
  }
  return j.dump(-1, ' ', false, StoreJson::error_handler_t::replace);
}

RunResult decode_run_result(const std::string& text) {
  const char* what = "run";
  const StoreJson j = parse(text, what);
  RunResult r;
  r.seed = get<std::uint64_t>(j, "seed", what);
  r.kind = kind_named(get<std::string>(j, "kind", what));
  r.handle = get<std::string>(j, "handle", what);
  r.schedule_hash = get<std::uint64_t>(j, "schedule_hash", what);
  r.steps = get<std::uint64_t>(j, "steps", what);
  r.decisions = get<std::uint64_t>(j, "decisions", what);
  r.preemptions = get<std::uint64_t>(j, "preemptions", what);
  r.threads = get<std::uint32_t>(j, "threads", what);
  r.output_tail = get<std::string>(j, "output_tail", what);
  r.note = get<std::string>(j, "note", what);
  if (const auto f = j.find("failure"); f != j.end()) {
    FailureDetails d;
    d.kind = kind_named(get<std::string>(*f, "kind", what));
    d.message = get<std::string>(*f, "message", what);
    d.file = get<std::string>(*f, "file", what);
    d.line = get<std::uint32_t>(*f, "line", what);
    d.function = get<std::string>(*f, "function", what);
    d.stack = get<std::vector<std::string>>(*f, "stack", what);
    d.details = get<std::vector<std::string>>(*f, "details", what);
    d.signature = get<std::string>(*f, "signature", what);
    r.failure = std::move(d);
  }
  if (const auto a = j.find("access_pairs"); a != j.end()) {
    AccessPairs pairs;
    pairs.accesses = get<std::uint64_t>(*a, "accesses", what);
    pairs.locations = get<std::uint64_t>(*a, "locations", what);
    pairs.untracked = get<std::uint64_t>(*a, "untracked", what);
    pairs.dropped = get<std::uint32_t>(*a, "dropped", what);
    try {
      for (const StoreJson& p : a->at("pairs")) {
        AccessPairResult x;
        x.head = p.at(0).get<std::string>();
        x.tail = p.at(1).get<std::string>();
        x.count = p.at(2).get<std::uint32_t>();
        x.head_site = p.at(3).get<std::uint64_t>();
        x.tail_site = p.at(4).get<std::uint64_t>();
        x.head_write = p.at(5).get<bool>();
        x.tail_write = p.at(6).get<bool>();
        x.head_thread = p.at(7).get<std::uint32_t>();
        x.tail_thread = p.at(8).get<std::uint32_t>();
        x.head_iteration = p.at(9).get<std::uint8_t>();
        x.tail_iteration = p.at(10).get<std::uint8_t>();
        x.head_access = p.at(11).get<std::uint32_t>();
        x.tail_access = p.at(12).get<std::uint32_t>();
        x.location = p.at(13).get<std::uint32_t>();
        x.head_sync = p.at(14).get<std::uint8_t>();
        x.tail_sync = p.at(15).get<std::uint8_t>();
        pairs.pairs.push_back(std::move(x));
      }
    } catch (const StoreJson::exception&) {
      corrupt("run (access pairs)");
    }
    r.access_pairs = std::move(pairs);
  }
  return r;
}

std::string encode_falcon_run(const localize::FalconRun& run) {
  StoreJson patterns = StoreJson::array();
  for (const localize::FalconSighting& s : run.patterns) {
    patterns.push_back(StoreJson::array({static_cast<int>(s.id.kind), s.id.sites, s.id.ops, s.count, s.location,
                                    s.location_name, s.threads}));
  }
  StoreJson j = {{"failed", run.failed}, {"dropped", run.dropped}, {"patterns", std::move(patterns)}};
  if (run.fixed_by_lifecycle != 0) j["fixed_by_lifecycle"] = run.fixed_by_lifecycle;
  if (run.executed) {
    StoreJson executed = StoreJson::array();
    for (const localize::ExecutedAccess& a : *run.executed) executed.push_back(StoreJson::array({a.site, a.location, a.write, a.sync}));
    j["executed"] = std::move(executed);
  }
  return j.dump(-1, ' ', false, StoreJson::error_handler_t::replace);
}

localize::FalconRun decode_falcon_run(const std::string& text) {
  const char* what = "Falcon summary";
  const StoreJson j = parse(text, what);
  localize::FalconRun run;
  run.failed = get<bool>(j, "failed", what);
  run.dropped = get<std::uint32_t>(j, "dropped", what);
  // Runs stored before the count existed have none.
  if (j.contains("fixed_by_lifecycle")) run.fixed_by_lifecycle = get<std::uint64_t>(j, "fixed_by_lifecycle", what);
  try {
    for (const StoreJson& p : j.at("patterns")) {
      localize::FalconSighting s;
      s.id.kind = static_cast<FalconKind>(p.at(0).get<int>());
      s.id.sites = p.at(1).get<std::array<std::uint64_t, 3>>();
      s.id.ops = p.at(2).get<std::array<std::uint8_t, 3>>();
      s.count = p.at(3).get<std::uint32_t>();
      s.location = p.at(4).get<std::uint64_t>();
      s.location_name = p.at(5).get<std::string>();
      s.threads = p.at(6).get<std::array<std::uint32_t, 2>>();
      run.patterns.push_back(std::move(s));
    }
    // Stores written before sites were collected have none: then they are unknown.
    if (j.contains("executed")) {
      std::vector<localize::ExecutedAccess> executed;
      for (const StoreJson& a : j.at("executed")) {
        executed.push_back({a.at(0).get<std::uint64_t>(), a.at(1).get<std::uint64_t>(), a.at(2).get<bool>(), a.at(3).get<bool>()});
      }
      run.executed = std::move(executed);
    }
  } catch (const StoreJson::exception&) {
    corrupt(what);
  }
  return run;
}

std::string encode_spectra_run(const localize::SpectraRun& run) {
  StoreJson components = StoreJson::array();
  for (const localize::ComponentObservation& c : run.components) {
    components.push_back(StoreJson::array({c.site, c.call_site, c.entries, c.threads, c.concurrent,
                                      c.concurrent_threads, c.first_entry}));
  }
  return StoreJson{{"failed", run.failed}, {"components", std::move(components)}}.dump();
}

localize::SpectraRun decode_spectra_run(const std::string& text) {
  const char* what = "spectra summary";
  const StoreJson j = parse(text, what);
  localize::SpectraRun run;
  run.failed = get<bool>(j, "failed", what);
  try {
    for (const StoreJson& c : j.at("components")) {
      localize::ComponentObservation o;
      o.site = c.at(0).get<std::uint64_t>();
      o.call_site = c.at(1).get<std::uint64_t>();
      o.entries = c.at(2).get<std::uint64_t>();
      o.threads = c.at(3).get<std::uint32_t>();
      o.concurrent = c.at(4).get<bool>();
      o.concurrent_threads = c.at(5).get<std::array<std::uint32_t, 2>>();
      o.first_entry = c.at(6).get<std::uint64_t>();
      run.components.push_back(o);
    }
  } catch (const StoreJson::exception&) {
    corrupt(what);
  }
  return run;
}

std::string encode_spec(const RunSpec& spec) {
  StoreJson j = {{"strategy", to_string(spec.strategy)},
            {"pct_depth", spec.pct_depth},
            {"pct_steps", spec.pct_steps},
            {"spurious_wakeups", spec.spurious_wakeups},
            {"points", static_cast<int>(spec.points)},
            {"max_steps", spec.max_steps}};
  j["preemption_bound"] = spec.preemption_bound ? StoreJson(*spec.preemption_bound) : StoreJson(nullptr);
  if (!spec.surw_events.empty()) j["surw_events"] = spec.surw_events;
  if (spec.surw_uniform_percent != 0) j["surw_uniform"] = spec.surw_uniform_percent;
  return j.dump();
}

RunSpec decode_spec(const std::string& text) {
  const char* what = "strategy";
  const StoreJson j = parse(text, what);
  RunSpec spec;
  const std::string strategy = get<std::string>(j, "strategy", what);
  // Every strategy a seeds run can use; replay and preemptions never reach the store.
  constexpr StrategyKind kStored[] = {StrategyKind::Random, StrategyKind::Pct, StrategyKind::Pos,
                                      StrategyKind::Surw, StrategyKind::Portfolio, StrategyKind::Dfs};
  const auto* kind = std::find_if(std::begin(kStored), std::end(kStored),
                                  [&](StrategyKind k) { return strategy == to_string(k); });
  if (kind == std::end(kStored)) corrupt("strategy '" + strategy + "'");
  spec.strategy = *kind;
  spec.pct_depth = get<std::uint32_t>(j, "pct_depth", what);
  spec.pct_steps = get<std::uint64_t>(j, "pct_steps", what);
  spec.spurious_wakeups = get<bool>(j, "spurious_wakeups", what);
  spec.points = static_cast<PointsMode>(get<int>(j, "points", what));
  spec.max_steps = get<std::uint64_t>(j, "max_steps", what);
  if (j.contains("preemption_bound") && !j["preemption_bound"].is_null()) {
    spec.preemption_bound = get<std::uint32_t>(j, "preemption_bound", what);
  }
  if (j.contains("surw_events")) spec.surw_events = get<std::vector<std::uint32_t>>(j, "surw_events", what);
  if (j.contains("surw_uniform")) spec.surw_uniform_percent = get<std::uint32_t>(j, "surw_uniform", what);
  return spec;
}

}  // namespace ctrlsched::driver

// Seeds mode (see modes.h): calibration, the seeds loop (runs/seeds_loop.h), the schedules of the
// first failing seeds, the reports and, with --localize, the localization pipeline. Everything
// printed is in seed order and independent of -j.
#include "modes/modes.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "localize/localization.h"
#include "modes/report_files.h"
#include "options/shard.h"
#include "report/json_report.h"
#include "report/progress.h"
#include "report/summary.h"
#include "report/symbolizer.h"
#include "runs/atomic_file.h"
#include "runs/calibration.h"
#include "runs/child_launch.h"
#include "runs/outcome.h"
#include "runs/portfolio.h"
#include "runs/schedule_store.h"
#include "runs/seeds_loop.h"
#include "runs/stop_request.h"
#include "store/run_store.h"
#include "store/store_writer.h"

namespace ctrlsched::driver {
namespace {

// Schedules of the first failing seeds are saved; more would only fill the disk with near-copies.
constexpr std::size_t kSavedSchedules = 20;

void warn(const std::string& message) { std::fprintf(stderr, "ctrlsched: warning: %s\n", message.c_str()); }

unsigned default_jobs() {
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 ? static_cast<unsigned>(cpus) : 1;
}

std::vector<std::string> split_functions(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

localize::FalconScore falcon_score_of(ScoreKind kind) {
  switch (kind) {
    case ScoreKind::Tarantula: return localize::FalconScore::Tarantula;
    case ScoreKind::Ochiai: return localize::FalconScore::Ochiai;
    case ScoreKind::Jaccard: break;
  }
  return localize::FalconScore::Jaccard;
}

std::optional<localize::locon::Procedure> procedure_of(LoconProcedure p) {
  switch (p) {
    case LoconProcedure::I: return localize::locon::Procedure::I;
    case LoconProcedure::II: return localize::locon::Procedure::II;
    case LoconProcedure::III: return localize::locon::Procedure::III;
    case LoconProcedure::Auto: break;
  }
  return std::nullopt;
}

std::uint32_t spectra_levels_of(SpectraLevel level) {
  switch (level) {
    case SpectraLevel::Level1: return 1;
    case SpectraLevel::Level2: return 2;
    case SpectraLevel::None: break;
  }
  return 0;
}

LocalizeSettings localize_settings(const Options& o, unsigned jobs) {
  LocalizeSettings s;
  s.score = falcon_score_of(*o.score);
  s.window = static_cast<std::uint32_t>(*o.window);
  s.procedure = procedure_of(*o.procedure);
  s.spectra_levels = spectra_levels_of(*o.spectra);
  if (o.failure_site) s.failure_sites = split_functions(*o.failure_site);
  s.max_distance = static_cast<std::uint32_t>(*o.max_distance);
  s.top = static_cast<std::size_t>(*o.top);
  s.confirm_seeds = *o.confirm_seeds;
  s.confirm = !o.no_confirm;
  s.jobs = jobs;
  s.timeout_seconds = *o.timeout;
  if (!o.no_save) s.save_dir = *o.save_schedules;
  return s;
}

std::uint64_t seed_of(const RunResult& run) { return run.seed; }
std::uint64_t seed_of(std::uint64_t seed) { return seed; }
// The options besides the handle that a replay needs to judge a run as this run did.
std::vector<std::string> replay_options(const CommandLine& cl) {
  std::vector<std::string> words;
  if (cl.given.pass_exit_codes) {
    std::string list;
    for (int code : *cl.options.pass_exit_codes) list += (list.empty() ? "" : ",") + std::to_string(code);
    words.push_back("--pass-exit-codes=" + list);
  }
  if (cl.options.private_cwd) words.push_back("--private-cwd");
  return words;
}

}  // namespace

LocalizeSettings localize_settings_of(const Options& options, unsigned jobs) { return localize_settings(options, jobs); }

ExitCode run_seeds(const CommandLine& cl) {
  const Options& o = cl.options;
  const LaunchTarget target = prepare_launch(cl.target, cl.args, cl.options.private_cwd);
  if (o.json) {  // check it now: a typo in the path should not cost a whole exploration
    if (const std::string problem = check_writable(*o.json); !problem.empty()) {
      usage_error("cannot write the --json file " + *o.json + ": " + problem);
    }
  }
  if (o.store) RunStore{*o.store};  // a file that is not a run store ends it before any run (exit 7)
  ReportFiles report_files(o);  // --sarif, --junit, --html
  const ScheduleStore store(*o.save_schedules);
  bool saving = !o.no_save;
  if (saving) {
    if (const std::string warning = store.prepare(); !warning.empty()) {
      warn(warning);
      saving = false;
    }
  }

  const auto started = std::chrono::steady_clock::now();
  Report report;
  ReportHeader& header = report.header;
  header.seed_start = *o.seed_start;
  header.seeds_requested = *o.seeds;
  header.stop_after = o.stop_after;
  header.jobs = o.jobs ? static_cast<unsigned>(*o.jobs) : default_jobs();
  header.test = TestCommand{cl.target, cl.args, replay_options(cl)};
  std::optional<Shard> shard;
  if (o.shard) {
    shard = resolve_shard(*o.shard, [](const std::string& name) -> std::optional<std::string> {
      const char* value = std::getenv(name.c_str());
      return value ? std::optional<std::string>(value) : std::nullopt;
    });
    if (seeds_in_shard(*o.seeds, *shard) == 0) {
      usage_error("shard " + std::to_string(shard->index) + "/" + std::to_string(shard->count) + " has no seeds: --seeds " +
                  std::to_string(*o.seeds) + " is fewer than the " + std::to_string(shard->count) + " shards");
    }
    header.shard_index = shard->index;
    header.shard_count = shard->count;
  }
  header.spec = spec_from_options(o);
  // The fork servers start while the driver calibrates (served by the first of them): a second
  // slot's server is ready when the seeds begin.
  if (!o.no_fork_server) {
    const std::uint64_t seeds_here = shard ? seeds_in_shard(*o.seeds, *shard) : *o.seeds;
    start_fork_servers_ahead(target, static_cast<unsigned>(std::min<std::uint64_t>(header.jobs, seeds_here)));
  }
  std::optional<CalibrationLimit> limit;  // set when a calibration run reached --max-steps
  if (header.spec.strategy == StrategyKind::Pct && header.spec.pct_steps == 0) {
    header.spec.pct_steps = calibrate_pct_steps(target, header.spec, *o.timeout, cl.target, &limit, !o.no_fork_server);
    header.pct_steps_calibrated = true;
  } else if (header.spec.strategy == StrategyKind::Surw) {
    header.spec = calibrated_spec(target, header.spec, *o.timeout, cl.target);
  } else if (header.spec.strategy == StrategyKind::Portfolio) {
    header.portfolio = calibrate_portfolio(target, header.spec, *o.timeout, cl.target, &limit, !o.no_fork_server);
    header.pct_steps_calibrated = true;
  }
  if (limit) {
    header.pct_calibration_reached_limit = true;
    std::fprintf(stderr, "ctrlsched: %s\n", calibration_limit_note(*limit, header.spec.max_steps).c_str());
  }

  std::optional<StoreWriter> stored;  // --store (docs/store.md)
  if (o.store) stored.emplace(*o.store, target.path, header);
  Symbolizer symbolizer;
  ClassifyContext context;
  const LocalizeSettings localize = localize_settings(o, header.jobs);
  std::optional<LocalizationData> localization_data;
  SeedsLoopSettings loop;
  loop.seed_start = header.seed_start;
  loop.count = *o.seeds;
  if (shard) {  // round robin (options/shard.h): seeds S + (K-1), S + (K-1) + N, ...
    loop.seed_start += shard->index - 1;
    loop.count = seeds_in_shard(*o.seeds, *shard);
    loop.seed_stride = shard->count;
  }
  if (o.localize) localization_data.emplace(static_cast<std::size_t>(loop.count));
  context.timeout_seconds = *o.timeout;
  context.passing_exit_codes = *o.pass_exit_codes;
  context.symbolize = symbolizer.function();
  context.data_symbol = symbolizer.data_function();

  loop.spec = header.spec;
  loop.portfolio = header.portfolio;
  loop.jobs = header.jobs;
  loop.timeout_seconds = *o.timeout;
  loop.stop_after = o.stop_after;
  loop.fork_server = !o.no_fork_server;

  std::map<std::uint64_t, Schedule> kept;  // the lowest failing seed indices, at most kSavedSchedules
  std::optional<std::pair<std::uint64_t, std::string>> save_problem;
  Progress progress(!o.quiet, loop.count);
  SeedsLoopHooks hooks;
  hooks.configure = [&](std::uint64_t, RunConfig& config) {
    if (o.access_pairs) config.collectors |= kCollectAccessPairs;
    if (o.localize) configure_localizing_run(config, localize);
  };
  hooks.finished = [&](const FinishedRun& run, const RunResult& result) {
    const bool failed = result.failed();
    if (localization_data) localization_data->add(run.index, run.region.record(), failed, symbolizer);
    if (stored) stored->add(run.index, result, header.spec, localization_data ? &*localization_data : nullptr);
    if (!failed || !saving) return;
    std::string problem;
    if (auto schedule = recorded_schedule(run.region, result.handle, &problem)) {
      kept.emplace(run.index, std::move(*schedule));
      if (kept.size() > kSavedSchedules) kept.erase(std::prev(kept.end()));
    } else if (!save_problem || save_problem->first > run.index) {
      save_problem.emplace(run.index, problem);  // warn about the lowest seed only
    }
  };
  hooks.counted = [&](std::uint64_t done, std::uint64_t failures) { progress.set(done, failures); };
  hooks.tick = [&] {
    progress.tick();
    if (stored) stored->tick();
  };
  SeedsLoopResult seeds = run_seeds_loop(target, loop, hooks, context, cl.target);
  if (stored) stored->flush();
  progress.clear();
  header.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  header.stopped_early = seeds.stopped_early;
  header.interrupted = seeds.interrupted;
  if (seeds.interrupted) header.interrupt_signal = stop_signal();
  report.runs = std::move(seeds.runs);
  finish_report(report);

  // The reported seeds: a prefix (all, or up to --stop-after), or after a stop request every seed
  // that finished. Schedules are saved for reported failures only.
  const auto seed_at = [&](std::uint64_t index) { return loop.seed_start + index * loop.seed_stride; };
  const auto reported = [&](std::uint64_t index) {
    const std::uint64_t seed = seed_at(index);
    return std::binary_search(report.runs.begin(), report.runs.end(), seed,
                              [](const auto& a, const auto& b) { return seed_of(a) < seed_of(b); });
  };
  if (save_problem && reported(save_problem->first)) {
    warn("seed " + std::to_string(seed_at(save_problem->first)) + ": " + save_problem->second + "; schedule not saved");
  }
  for (const auto& [index, schedule] : kept) {
    if (!reported(index)) continue;
    if (const std::string warning = store.save(seed_at(index), schedule); !warning.empty()) {
      warn(warning);
      break;
    }
  }

  std::string text = render_summary(report, o.quiet);
  nlohmann::ordered_json json = report_json(report);
  if (localization_data && !header.interrupted) {
    std::fwrite(text.data(), 1, text.size(), stdout);  // the summary first: localizing takes a while
    std::fflush(stdout);
    try {
      LocalizationReport localized = run_localization(target, report, *localization_data, localize, context, cl.target);
      text = std::move(localized.text);
      json["localization"] = std::move(localized.json);
    } catch (const Interrupted&) {
      // Every seed finished; the confirmation runs were cut short. The summary is out already.
      text = "ctrlsched: localization INTERRUPTED by " + signal_name(stop_signal()) + "\n";
      header.interrupted = true;
      header.interrupt_signal = stop_signal();
      json["summary"]["interrupted"] = true;
    }
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  if (o.json) {
    const std::string content = json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    if (const std::string problem = write_file_atomically(*o.json, content); !problem.empty()) {
      warn("writing the --json file " + *o.json + " failed: " + problem);
    }
  }
  TracedGroups traced;
  // An interrupted run starts no traced reruns: the user asked it to stop.
  if (report_files.wants_thread_flows() && !header.interrupted) {
    traced = trace_groups(target, report, *o.timeout, cl.target, report_files.wants_timelines());
  }
  report_files.write(report, traced, json.contains("localization") ? json["localization"] : nlohmann::ordered_json());
  // Everything the finished seeds found is out; now die of the signal like any interrupted command.
  if (header.interrupted) throw Interrupted();
  return report.failures() > 0 ? ExitCode::Failures : ExitCode::Ok;
}

}  // namespace ctrlsched::driver

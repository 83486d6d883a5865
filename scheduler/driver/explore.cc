// Seeds mode (see explore.h): calibration, the parallel runs, --stop-after, schedule saving and
// the reports. Results are stored by seed index as they arrive, so everything printed is in seed
// order and independent of -j.
#include "explore.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "calibration.h"
#include "json_report.h"
#include "localization.h"
#include "progress.h"
#include "run_collect.h"
#include "schedule_store.h"
#include "stop_after.h"
#include "summary.h"
#include "symbolizer.h"
#include "target_check.h"

namespace ctrlsched::driver {
namespace {

// Schedules of the first failing seeds are saved; more would only fill the disk with near-copies.
constexpr std::size_t kSavedSchedules = 20;

void warn(const std::string& message) { std::fprintf(stderr, "ctrlsched: warning: %s\n", message.c_str()); }

unsigned default_jobs() {
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 ? static_cast<unsigned>(cpus) : 1;
}

}  // namespace

LaunchTarget prepare_launch(const CommandLine& cl) {
  LaunchTarget target;
  target.path = check_target(cl.target);
  target.shim_path = locate_shim();
  target.argv.push_back(cl.target);
  target.argv.insert(target.argv.end(), cl.args.begin(), cl.args.end());
  return target;
}

ExitCode run_seeds(const CommandLine& cl) {
  const Options& o = cl.options;
  const LaunchTarget target = prepare_launch(cl);
  std::ofstream json_out;
  if (o.json) {  // open it now: a typo in the path should not cost a whole exploration
    json_out.open(*o.json, std::ios::trunc);
    if (!json_out) usage_error("cannot write the --json file " + *o.json);
  }
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
  header.test = TestCommand{cl.target, cl.args};
  header.spec = spec_from_options(o);
  if (header.spec.strategy == StrategyKind::Pct && header.spec.pct_steps == 0) {
    header.spec.pct_steps = calibrate_pct_steps(target, header.spec, *o.timeout, cl.target);
    header.pct_steps_calibrated = true;
  }

  Symbolizer symbolizer;
  ClassifyContext context;
  const LocalizeSettings localize = localize_settings(o, header.jobs);
  std::optional<LocalizationData> localization_data;
  if (o.localize) localization_data.emplace(static_cast<std::size_t>(*o.seeds));
  context.timeout_seconds = *o.timeout;
  context.symbolize = symbolizer.function();

  const std::uint64_t count = *o.seeds;
  std::vector<std::optional<RunResult>> results(static_cast<std::size_t>(count));
  PrefixTracker tracker(count, o.stop_after);
  std::map<std::uint64_t, Schedule> kept;  // the lowest failing seed indices, at most kSavedSchedules
  std::uint64_t done = 0, failures = 0;
  std::optional<std::pair<std::uint64_t, std::string>> save_problem;
  Progress progress(!o.quiet, count);

  PoolOptions pool_options;
  pool_options.jobs = static_cast<unsigned>(std::min<std::uint64_t>(header.jobs, count));
  pool_options.timeout = std::chrono::duration<double>(*o.timeout);
  pool_options.capture_output = true;
  pool_options.tick = [&] { progress.tick(); };
  WorkerPool pool(target, pool_options);
  pool.run(
      count,
      [&](std::uint64_t index) {
        RunSpec spec = header.spec;
        spec.seed = header.seed_start + index;
        RunJob job{run_config_for(spec), {}};
        if (o.access_pairs) job.config.collectors |= kCollectAccessPairs;
        if (o.localize) configure_localizing_run(job.config, localize);
        return job;
      },
      [&](const FinishedRun& run) {
        RunSpec spec = header.spec;
        spec.seed = header.seed_start + run.index;
        RunResult result = collect_result(run, spec, context, cl.target);
        const bool failed = result.failed();
        if (localization_data) localization_data->add(run.index, run.region.record(), failed, symbolizer);
        if (failed && saving) {
          std::string problem;
          if (auto schedule = recorded_schedule(run.region, result.handle, &problem)) {
            kept.emplace(run.index, std::move(*schedule));
            if (kept.size() > kSavedSchedules) kept.erase(std::prev(kept.end()));
          } else if (!save_problem || save_problem->first > run.index) {
            save_problem.emplace(run.index, problem);  // warn about the lowest seed only
          }
        }
        results[static_cast<std::size_t>(run.index)] = std::move(result);
        ++done;
        failures += failed;
        progress.set(done, failures);
        return !tracker.record(run.index, failed);
      });
  progress.clear();
  header.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const std::uint64_t reported = tracker.reported_count();
  header.stopped_early = tracker.stopped() && reported < count;
  report.runs.reserve(static_cast<std::size_t>(reported));
  for (std::uint64_t i = 0; i < reported; ++i) report.runs.push_back(std::move(*results[static_cast<std::size_t>(i)]));
  results.clear();
  finish_report(report);

  if (save_problem && save_problem->first < reported) {
    warn("seed " + std::to_string(header.seed_start + save_problem->first) + ": " + save_problem->second +
         "; schedule not saved");
  }
  for (const auto& [index, schedule] : kept) {
    if (index >= reported) continue;
    if (const std::string warning = store.save(header.seed_start + index, schedule); !warning.empty()) {
      warn(warning);
      break;
    }
  }

  std::string text = render_summary(report, o.quiet);
  nlohmann::ordered_json json = report_json(report);
  if (localization_data) {
    std::fwrite(text.data(), 1, text.size(), stdout);  // the summary first: localizing takes a while
    std::fflush(stdout);
    LocalizationReport localized = run_localization(target, report, *localization_data, localize, context, cl.target);
    text = std::move(localized.text);
    json["localization"] = std::move(localized.json);
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  if (o.json) {
    json_out << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    json_out.flush();
    if (!json_out) warn("writing the --json file " + *o.json + " failed");
  }
  return report.failures() > 0 ? ExitCode::Failures : ExitCode::Ok;
}

}  // namespace ctrlsched::driver

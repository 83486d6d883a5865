// Seeds mode (see modes.h): calibration, the seeds loop (runs/seeds_loop.h), the schedules of the
// first failing seeds, the reports and, with --localize, the localization pipeline. Everything
// printed is in seed order and independent of -j.
#include "modes/modes.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "localize/localization.h"
#include "report/json_report.h"
#include "report/progress.h"
#include "report/summary.h"
#include "report/symbolizer.h"
#include "runs/calibration.h"
#include "runs/child_launch.h"
#include "runs/schedule_store.h"
#include "runs/seeds_loop.h"

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

ExitCode run_seeds(const CommandLine& cl) {
  const Options& o = cl.options;
  const LaunchTarget target = prepare_launch(cl.target, cl.args, cl.options.private_cwd);
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
  header.test = TestCommand{cl.target, cl.args, replay_options(cl)};
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
  context.passing_exit_codes = *o.pass_exit_codes;
  context.symbolize = symbolizer.function();

  SeedsLoopSettings loop;
  loop.spec = header.spec;
  loop.seed_start = header.seed_start;
  loop.count = *o.seeds;
  loop.jobs = header.jobs;
  loop.timeout_seconds = *o.timeout;
  loop.stop_after = o.stop_after;

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
  hooks.tick = [&] { progress.tick(); };
  SeedsLoopResult seeds = run_seeds_loop(target, loop, hooks, context, cl.target);
  progress.clear();
  header.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const std::uint64_t reported = seeds.runs.size();
  header.stopped_early = seeds.stopped_early;
  report.runs = std::move(seeds.runs);
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

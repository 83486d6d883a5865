// `ctrlsched report --store` and `ctrlsched localize --store` (see modes.h and docs/store.md):
// the reports and the localization of a seeds run, over the runs a run store kept.
#include <cstdio>

#include "localize/localization.h"
#include "modes/modes.h"
#include "modes/report_files.h"
#include "report/json_report.h"
#include "report/summary.h"
#include "report/symbolizer.h"
#include "runs/atomic_file.h"
#include "runs/child_launch.h"
#include "runs/outcome.h"
#include "runs/stop_request.h"
#include "runs/target_check.h"
#include "store/binary_identity.h"
#include "store/run_store.h"
#include "store/stored_report.h"

namespace ctrlsched::driver {

LocalizeSettings localize_settings_of(const Options& options, unsigned jobs);  // seeds.cc

namespace {

void warn_store(const std::string& message) { std::fprintf(stderr, "ctrlsched: warning: %s\n", message.c_str()); }

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void write_json(const std::optional<std::string>& path, const nlohmann::ordered_json& json) {
  if (!path) return;
  const std::string content = json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  if (const std::string problem = write_file_atomically(*path, content); !problem.empty()) {
    warn_store("writing the --json file " + *path + " failed: " + problem);
  }
}

std::string left_out_note(const StoredExploration& e) {
  if (e.other_strategies == 0) return "";
  return "ctrlsched: note: " + std::to_string(e.other_strategies) +
         " stored runs of this build used another strategy and are left out\n";
}

}  // namespace

ExitCode run_store_report(const StoreReportCommandLine& cl) {
  Options files;
  files.sarif = cl.sarif;
  files.junit = cl.junit;
  ReportFiles report_files(files);
  if (cl.json) {
    if (const std::string problem = check_writable(*cl.json); !problem.empty()) {
      usage_error("cannot write the --json file " + *cl.json + ": " + problem);
    }
  }
  RunStore store(cl.store);
  std::optional<std::int64_t> generation;
  if (cl.target) {
    const std::optional<StoreGeneration> found = store.find_generation(identify_binary(check_target(*cl.target)));
    if (found) generation = found->id;
  } else {
    generation = store.latest_generation();
  }
  if (!generation) {
    usage_error("the store " + cl.store + " holds no runs" + (cl.target ? " of this build of " + *cl.target : std::string()));
  }
  Symbolizer symbolizer;
  StoredExploration stored = load_exploration(store, *generation, symbolizer);
  std::fputs(left_out_note(stored).c_str(), stderr);
  const Report& report = stored.report;
  print(render_summary(report, cl.quiet));
  const nlohmann::ordered_json json = report_json(report);
  write_json(cl.json, json);
  // SARIF without codeFlows: they need traced reruns, and this command runs nothing.
  report_files.write(report, {}, nlohmann::ordered_json());
  return report.failures() > 0 ? ExitCode::Failures : ExitCode::Ok;
}

ExitCode run_store_localize(const CommandLine& cl) {
  const Options& o = cl.options;
  if (!o.store) usage_error("localize needs --store FILE (ctrlsched localize --store runs.db ./test)");
  const LaunchTarget target = prepare_launch(cl.target, cl.args, o.private_cwd);
  if (o.json) {
    if (const std::string problem = check_writable(*o.json); !problem.empty()) {
      usage_error("cannot write the --json file " + *o.json + ": " + problem);
    }
  }
  ReportFiles report_files(o);
  RunStore store(*o.store);
  const std::optional<StoreGeneration> generation = store.find_generation(identify_binary(target.path));
  if (!generation) usage_error("the store " + *o.store + " holds no runs of this build of " + cl.target);
  Symbolizer symbolizer;
  StoredExploration stored = load_exploration(store, generation->id, symbolizer);
  std::fputs(left_out_note(stored).c_str(), stderr);
  Report& report = stored.report;
  report.header.test = TestCommand{cl.target, cl.args, report.header.test.replay_options};
  const unsigned jobs = o.jobs ? static_cast<unsigned>(*o.jobs) : report.header.jobs;
  report.header.jobs = jobs;
  print(render_summary(report, o.quiet));
  if (stored.summaries == 0) {
    usage_error("the stored runs carry no collector summaries: store them with `ctrlsched --seeds N --localize --store " +
                *o.store + " " + cl.target + "`");
  }
  ClassifyContext context;
  context.timeout_seconds = *o.timeout;
  context.passing_exit_codes = *o.pass_exit_codes;
  context.symbolize = symbolizer.function();
  context.data_symbol = symbolizer.data_function();
  const LocalizeSettings settings = localize_settings_of(o, jobs);
  nlohmann::ordered_json json = report_json(report);
  try {
    LocalizationReport localized = run_localization(target, report, stored.data, settings, context, cl.target);
    print(localized.text);
    json["localization"] = std::move(localized.json);
  } catch (const Interrupted&) {
    print("ctrlsched: localization INTERRUPTED by " + signal_name(stop_signal()) + "\n");
    throw;
  }
  write_json(o.json, json);
  report_files.write(report, {}, json["localization"]);
  return report.failures() > 0 ? ExitCode::Failures : ExitCode::Ok;
}

}  // namespace ctrlsched::driver

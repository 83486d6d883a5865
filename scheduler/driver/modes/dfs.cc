// Dfs mode (see modes.h): the exhaustive bounded search of `--strategy dfs` through the dfs loop
// (runs/dfs_loop.h), its summary line, the schedule of each reported failure, and the JSON report
// (the seeds report's fields plus a "dfs" object, docs/json-schema.md). Everything printed is in
// exploration order and independent of -j. No progress line: the number of schedules is not
// known until the frontier is empty.
#include "modes/modes.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>

#include "report/json_report.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/symbolizer.h"
#include "runs/atomic_file.h"
#include "runs/child_launch.h"
#include "runs/dfs_loop.h"
#include "runs/schedule_store.h"
#include "runs/stop_request.h"

namespace ctrlsched::driver {
namespace {

constexpr std::uint32_t kDefaultDfsBound = 2;

void warn_dfs(const std::string& message) { std::fprintf(stderr, "ctrlsched: warning: %s\n", message.c_str()); }

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return grouped(n) + " " + (n == 1 ? one : many);
}

std::vector<std::string> dfs_replay_options(const CommandLine& cl) {
  std::vector<std::string> words;
  if (cl.given.pass_exit_codes) {
    std::string list;
    for (int code : *cl.options.pass_exit_codes) list += (list.empty() ? "" : ",") + std::to_string(code);
    words.push_back("--pass-exit-codes=" + list);
  }
  if (cl.options.private_cwd) words.push_back("--private-cwd");
  if (cl.given.save_schedules) words.push_back("--save-schedules=" + *cl.options.save_schedules);
  return words;
}

std::string reduction_text(DfsReduction reduction) {
  switch (reduction) {
    case DfsReduction::Dpor: return "partial-order reduction";
    case DfsReduction::SleepSets: return "sleep-set reduction";
    case DfsReduction::None: break;
  }
  return "no reduction";
}

// What the result covers, as the last line says it.
std::string coverage_text(const DfsLoopResult& r, const DfsLoopSettings& s) {
  std::string text = "explored " + plural(r.schedules, "schedule", "schedules");
  if (r.redundant_runs > 0) text += " (and " + plural(r.redundant_runs, "run", "runs") + " cut short as equivalent)";
  const std::string bound = "at most " + plural(s.preemption_bound, "preemption", "preemptions");
  if (r.exhaustive()) {
    text += ": every interleaving with " + bound;
    if (s.reduction != DfsReduction::None) text += ", up to the order of independent steps";
  } else if (r.interrupted) {
    text += ": NOT exhaustive (interrupted)";
  } else if (r.stopped_at_failures) {
    text += ": NOT exhaustive (stopped at the " + std::string(r.failures == 1 ? "first failure" : "failure limit") + ", " +
            plural(r.branches_left, "branch", "branches") + " left within " + bound + ")";
  } else if (r.max_schedules_reached) {
    text += ": NOT exhaustive (--max-schedules " + grouped(*s.max_schedules) + " reached, " +
            plural(r.branches_left, "branch", "branches") + " left within " + bound + ")";
  } else {
    text += ": NOT exhaustive within " + bound;
  }
  text += r.failures == 0 ? ", no failure" : ", " + plural(r.failures, "failure", "failures");
  return text + "\n";
}

}  // namespace

ExitCode run_dfs(const CommandLine& cl) {
  const Options& o = cl.options;
  const LaunchTarget target = prepare_launch(cl.target, cl.args, cl.options.private_cwd);
  if (o.json) {
    if (const std::string problem = check_writable(*o.json); !problem.empty()) {
      usage_error("cannot write the --json file " + *o.json + ": " + problem);
    }
  }
  const ScheduleStore store(*o.save_schedules);
  bool saving = !o.no_save;
  if (saving) {
    if (const std::string warning = store.prepare(); !warning.empty()) {
      warn_dfs(warning);
      saving = false;
    }
  }
  const auto started = std::chrono::steady_clock::now();

  DfsLoopSettings loop;
  loop.spec = spec_from_options(o);
  loop.spec.preemption_bound.reset();  // the bound is the exploration's, not a run's
  loop.preemption_bound = o.preemption_bound ? static_cast<std::uint32_t>(*o.preemption_bound) : kDefaultDfsBound;
  loop.reduction = o.no_reduction ? DfsReduction::None : o.sleep_sets ? DfsReduction::SleepSets : DfsReduction::Dpor;
  loop.max_schedules = o.max_schedules;
  loop.stop_after = o.stop_after.value_or(1);
  loop.jobs = o.jobs ? static_cast<unsigned>(*o.jobs) : static_cast<unsigned>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  loop.timeout_seconds = *o.timeout;
  loop.fork_server = !o.no_fork_server;

  Symbolizer symbolizer;
  ClassifyContext context;
  context.timeout_seconds = *o.timeout;
  context.passing_exit_codes = *o.pass_exit_codes;
  context.symbolize = symbolizer.function();
  context.data_symbol = symbolizer.data_function();

  std::map<std::uint64_t, Schedule> kept;  // failing runs' schedules by number
  DfsLoopHooks hooks;
  hooks.finished = [&](std::uint64_t number, const FinishedRun& run, const RunResult& result) {
    if (!result.failed() || !saving || kept.size() > loop.stop_after + 64) return;
    std::string problem;
    if (auto schedule = recorded_schedule(run.region, result.handle, &problem)) kept.emplace(number, std::move(*schedule));
  };
  DfsLoopResult result = run_dfs_loop(target, loop, hooks, context, cl.target);

  Report report;
  ReportHeader& header = report.header;
  header.seeds_requested = result.runs.size();
  header.stop_after = loop.stop_after;
  header.stopped_early = result.stopped_at_failures || result.interrupted;
  header.interrupted = result.interrupted;
  if (result.interrupted) header.interrupt_signal = stop_signal();
  header.spec = loop.spec;
  header.spec.preemption_bound = loop.preemption_bound;
  header.jobs = loop.jobs;
  header.test = TestCommand{cl.target, cl.args, dfs_replay_options(cl)};
  header.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  report.runs = result.runs;
  finish_report(report);

  std::string text;
  if (!o.quiet) {
    text += "ctrlsched: dfs · preemption bound " + std::to_string(loop.preemption_bound) + " · " +
            reduction_text(loop.reduction) + " · " + seconds_text(header.elapsed_seconds) + "\n";
  }
  for (std::size_t i = 0; i < result.runs.size(); ++i) {
    const RunResult& run = result.runs[i];
    if (!run.failed()) continue;
    const std::string replay = replay_command(run.handle, header.test);
    text += "FAIL  schedule " + std::to_string(run.seed) + " (" +
            plural(result.preemptions[i], "preemption", "preemptions") + ") — " + run.failure->message + "\n";
    text += render_failure_body(run, &replay);
    if (saving) {
      const auto it = kept.find(run.seed);
      if (it == kept.end()) {
        warn_dfs("schedule " + std::to_string(run.seed) + ": its schedule could not be saved; the replay handle needs it");
      } else if (const std::string w = store.save(run.seed, it->second); !w.empty()) {
        warn_dfs(w);
      }
    }
  }
  for (const std::string& gap : result.gaps) text += "note: not exhaustive: " + gap + "\n";
  if (!o.quiet || result.failures > 0) text += coverage_text(result, loop);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);

  if (o.json) {
    nlohmann::ordered_json json = report_json(report);
    nlohmann::ordered_json& dfs = json["dfs"];
    dfs["preemption_bound"] = loop.preemption_bound;
    dfs["reduction"] = loop.reduction == DfsReduction::Dpor ? "dpor" : loop.reduction == DfsReduction::SleepSets ? "sleep-sets" : "none";
    dfs["runs"] = result.runs.size();
    dfs["schedules"] = result.schedules;
    dfs["redundant_runs"] = result.redundant_runs;
    dfs["exhaustive"] = result.exhaustive();
    dfs["branches_left"] = result.branches_left;
    dfs["max_schedules"] = o.max_schedules ? nlohmann::ordered_json(*o.max_schedules) : nlohmann::ordered_json(nullptr);
    dfs["max_schedules_reached"] = result.max_schedules_reached;
    dfs["stopped_at_failures"] = result.stopped_at_failures;
    dfs["gaps"] = result.gaps;
    nlohmann::ordered_json& per_run = dfs["run_preemptions"];
    per_run = nlohmann::ordered_json::array();
    for (const std::uint32_t p : result.preemptions) per_run.push_back(p);
    nlohmann::ordered_json& cut = dfs["redundant"];
    cut = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < result.redundant.size(); ++i) {
      if (result.redundant[i]) cut.push_back(result.runs[i].seed);
    }
    const std::string content = json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    if (const std::string problem = write_file_atomically(*o.json, content); !problem.empty()) {
      warn_dfs("writing the --json file " + *o.json + " failed: " + problem);
    }
  }
  if (result.interrupted) throw Interrupted();
  // The seeds-mode codes: whether the search was exhaustive is in the last line and the JSON.
  return result.failures > 0 ? ExitCode::Failures : ExitCode::Ok;
}

}  // namespace ctrlsched::driver

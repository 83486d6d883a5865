// Replay mode (see replay.h).
#include "modes/replay.h"

#include "modes/modes.h"

#include <cstdio>

#include "report/summary.h"
#include "report/symbolizer.h"
#include "runs/portfolio.h"
#include "runs/child_launch.h"
#include "runs/outcome.h"
#include "runs/replay_config.h"
#include "runs/run_collect.h"
#include "runs/run_record_region.h"
#include "runs/schedule_store.h"

namespace ctrlsched::driver {
namespace {

void warn_replay(const std::string& message) { std::fprintf(stderr, "ctrlsched: warning: %s\n", message.c_str()); }

ReplayPlan plan_from_schedule(const std::string& file);

// A dfs schedule is its decision prefix, which only its saved schedule file holds: the handle
// finds that file by its hash, and the replay follows it.
ReplayPlan plan_from_dfs_handle(const std::string& handle, const RunSpec& spec, const ScheduleStore& store) {
  if (!spec.expected_hash) {
    throw DriverError(ExitCode::BadSchedule, "a dfs handle needs its schedule hash ('" + handle + "@<hash>')");
  }
  const auto path = store.find(*spec.expected_hash);
  if (!path) {
    throw DriverError(ExitCode::BadSchedule, "no saved schedule for '" + handle + "' in " + store.dir().string() +
                                                 " (a dfs schedule is replayed from the file the exploration saved)");
  }
  return plan_from_schedule(path->string());
}

ReplayPlan plan_from_handle(const std::string& handle, const ScheduleStore& store) {
  std::string error;
  std::optional<RunSpec> spec = parse_handle(handle, &error);
  if (!spec) throw DriverError(ExitCode::BadSchedule, "bad handle '" + handle + "': " + error);
  if (spec->strategy == StrategyKind::Dfs) return plan_from_dfs_handle(handle, *spec, store);
  ReplayPlan plan;
  plan.spec = *spec;
  plan.expected_hash = spec->expected_hash;
  if (!plan.expected_hash) return plan;
  // A saved schedule for this hash lets the shim name the exact step where the run leaves it.
  if (const auto path = store.find(*plan.expected_hash)) {
    try {
      Schedule saved = load_schedule_file(*path);
      plan.input = std::move(saved.decisions);
      plan.verify = true;
      plan.source = "saved schedule " + path->string();
    } catch (const DriverError& e) {
      warn_replay(std::string(e.what()) + " (replaying without it)");
    }
  }
  return plan;
}

ReplayPlan plan_from_schedule(const std::string& file) {
  Schedule schedule = load_schedule_file(file);
  ReplayPlan plan;
  // The handle in the file carries the run's other settings (points, max steps, spurious
  // wakeups); the decisions themselves come from the file.
  if (std::optional<RunSpec> spec = parse_handle(schedule.handle)) plan.spec = *spec;
  plan.spec.strategy = StrategyKind::Replay;
  plan.spec.expected_hash = schedule.hash;
  plan.expected_hash = schedule.hash;
  plan.input = std::move(schedule.decisions);
  plan.source = "schedule file " + file;
  plan.file_handle = schedule.handle;
  return plan;
}

std::string counters_line(const RunResult& r) {
  return "schedule " + format_hash(r.schedule_hash) + " · " + std::to_string(r.steps) + " steps · " +
         std::to_string(r.decisions) + " decisions · " + std::to_string(r.preemptions) + " preemptions · " +
         std::to_string(r.threads) + " threads\n";
}

}  // namespace

ReplayVerdict replay_verdict(bool shim_diverged, std::uint64_t decision_index, std::uint64_t step,
                             const std::string& what, std::uint64_t hash,
                             std::optional<std::uint64_t> expected_hash) {
  if (shim_diverged) {
    return {true, "replay DIVERGED at decision " + std::to_string(decision_index) + " (step " +
                      std::to_string(step) + "): " + what};
  }
  if (!expected_hash) return {false, ""};
  if (hash != *expected_hash) {
    return {true, "replay DIVERGED: schedule hash " + format_hash(hash) + ", expected " + format_hash(*expected_hash)};
  }
  return {false, "replay matched schedule " + format_hash(hash)};
}

ReplayPlan plan_replay(const CommandLine& cl) {
  const Options& o = cl.options;
  ReplayPlan plan;
  if (cl.handle) {
    plan = plan_from_handle(*cl.handle, ScheduleStore(*o.save_schedules));
  } else if (o.schedule) {
    plan = plan_from_schedule(*o.schedule);
  } else {
    plan.spec = spec_from_options(o);
    plan.spec.seed = *o.seed;
  }
  return plan;
}

ExitCode run_replay(const CommandLine& cl) {
  // Resolve what to replay first: a bad handle or file is reported before the target is checked.
  return run_replay(cl, plan_replay(cl), nullptr);
}

ExitCode run_replay(const CommandLine& cl, ReplayPlan plan, const ReplayTracing* tracing) {
  const Options& o = cl.options;
  const LaunchTarget target = prepare_launch(cl.target, cl.args, cl.options.private_cwd);
  if (plan.spec.strategy != StrategyKind::Replay) plan.spec = calibrated_spec(target, plan.spec, *o.timeout, cl.target);

  if (!o.quiet) {
    std::string head = std::string(cl.mode == Mode::Trace ? "ctrlsched trace: " : "ctrlsched replay: ") +
                       (plan.spec.strategy == StrategyKind::Replay ? plan.source : to_handle(plan.spec)) + " · " +
                       cl.target;
    if (plan.verify) head += " (verifying against " + plan.source + ")";
    std::printf("%s\n", head.c_str());
    std::fflush(stdout);  // before the test writes to the same terminal
  }

  RunJob job;
  if (plan.spec.strategy == StrategyKind::Replay) {
    job.config = follow_config_for(plan.spec, parse_handle(plan.file_handle));
  } else {
    job.config = handle_config_for(plan.spec, plan.verify);
  }
  job.input_log = encode_input_log(plan.input, kLogRegionBytes);
  if (tracing) job.trace_fd = tracing->trace_fd;
  PoolOptions options;
  options.jobs = 1;
  options.timeout = std::chrono::duration<double>(*o.timeout);
  options.capture_output = false;
  Symbolizer symbolizer;
  ClassifyContext context;
  context.timeout_seconds = *o.timeout;
  context.passing_exit_codes = *o.pass_exit_codes;
  context.symbolize = symbolizer.function();
  context.data_symbol = symbolizer.data_function();

  struct Outcome {
    RunResult result;
    ReplayVerdict verdict;
    std::optional<Schedule> schedule;
    std::string save_problem;
  };
  RunSpec run_spec = plan.spec;
  run_spec.expected_hash.reset();
  Outcome outcome = run_single<Outcome>(target, options, std::move(job), [&](const FinishedRun& run) {
    Outcome out;
    out.result = collect_result(run, run_spec, context, cl.target);
    const RunRecord& record = run.region.record();
    const DivergenceInfo& d = record.divergence;
    out.verdict = replay_verdict(out.result.kind == OutcomeKind::Diverged, d.decision_index, d.step,
                                 record_text(d.what), record.schedule_hash,
                                 run.exit.timed_out ? std::nullopt : plan.expected_hash);
    // A Replay spec has no handle of its own: keep the one the schedule file carried.
    const std::string& handle = plan.file_handle.empty() ? out.result.handle : plan.file_handle;
    if (o.save_schedule) out.schedule = recorded_schedule(run.region, handle, &out.save_problem);
    if (tracing && tracing->on_finished) tracing->on_finished(record, handle);
    return out;
  });

  const RunResult& r = outcome.result;
  std::string text;
  if (r.kind != OutcomeKind::Diverged) {
    if (r.failed()) text += "FAIL  " + r.failure->message + "\n" + render_failure_body(r, nullptr);
    else if (r.passed()) text += "PASS\n";
    else text += "UNFINISHED  " + r.failure->message + " (raise --max-steps to run it to the end)\n";
  }
  if (!o.quiet || outcome.verdict.diverged) {
    if (!o.quiet) text += counters_line(r);
    if (!outcome.verdict.line.empty()) text += outcome.verdict.line + "\n";
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);

  if (o.save_schedule) {
    if (!outcome.schedule) {
      warn_replay(outcome.save_problem + "; schedule not saved");
    } else if (const std::string warning = write_schedule_file(*o.save_schedule, *outcome.schedule);
               !warning.empty()) {
      warn_replay(warning);
    }
  }
  if (outcome.verdict.diverged) return ExitCode::Diverged;
  return r.failed() ? ExitCode::Failures : ExitCode::Ok;
}

}  // namespace ctrlsched::driver

// ConSeq prediction in the driver (predict.h).
#include "localize/predict.h"

#include <cstdio>
#include <filesystem>

#include "ctrlsched/localize/trace_file.h"
#include "localize/failure_sites.h"
#include "report/symbolizer.h"
#include "runs/outcome.h"
#include "runs/run_collect.h"
#include "runs/run_record_region.h"
#include "runs/trace_region.h"
#include "runs/worker_pool.h"

namespace ctrlsched::driver {

namespace {

std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

std::uint32_t module_of(const localize::Trace& trace, const std::string& executable) {
  namespace fs = std::filesystem;
  for (std::uint32_t m = 0; m < trace.modules.size(); ++m) {
    std::error_code ec;
    if (fs::equivalent(trace.modules[m].path, executable, ec)) return m;
  }
  return 0;
}

void predict_orders_into(Prediction& p, const localize::Trace& trace,
                         const std::vector<localize::CriticalRead>& critical, const PredictSettings& settings) {
  p.handle = trace.handle;
  p.critical_reads = critical.size();
  Symbolizer symbolizer;
  DumpSymbolizer names(symbolizer);
  for (const localize::OrderCandidate& c : localize::predict_orders(trace, critical, settings.predict)) {
    PredictedOrder order;
    order.candidate = c;
    order.directive = localize::to_force_directive(trace, c, settings.hold_limit);
    order.line = localize::describe_candidate(trace, c, names);
    p.orders.push_back(std::move(order));
  }
  if (!trace.has_values) p.problem = "the trace has no values (format version 1): equal values not filtered";
}

std::string_view access_name(std::uint8_t access) {
  switch (static_cast<ForceAccess>(access)) {
    case ForceAccess::Read: return "read";
    case ForceAccess::Write: return "write";
    case ForceAccess::Entry: return "entry";
    default: return "any";
  }
}

}  // namespace

TracedRun run_traced(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                     const std::string& target_name, const Schedule* replay) {
  TraceRegion region;
  RunJob job;
  if (replay != nullptr) {
    RunSpec replay_spec = spec;
    replay_spec.strategy = StrategyKind::Replay;
    job.config = run_config_for(replay_spec);
    job.input_log = encode_input_log(replay->decisions, kLogRegionBytes);
  } else {
    job.config = run_config_for(spec);
  }
  job.trace_fd = region.fd();
  PoolOptions options;
  options.jobs = 1;
  options.timeout = std::chrono::duration<double>(timeout_seconds);
  options.capture_output = true;
  Symbolizer symbolizer;
  ClassifyContext context;
  context.timeout_seconds = timeout_seconds;
  context.symbolize = symbolizer.function();
  context.data_symbol = symbolizer.data_function();
  RunSpec run_spec = spec;
  run_spec.expected_hash.reset();
  return run_single<TracedRun>(target, options, std::move(job), [&](const FinishedRun& run) {
    TracedRun out;
    out.result = collect_result(run, run_spec, context, target_name);
    const RunRecord& record = run.region.record();
    out.trace = localize::from_region(region.data(), region.size(), record.modules, out.result.handle,
                                      record.schedule_hash);
    if (out.result.failed()) out.failing_thread = failing_thread_of(record, out.trace);
    std::string problem;
    out.schedule = recorded_schedule(run.region, out.result.handle, &problem);
    out.replayed_faithfully = replay == nullptr || record.schedule_hash == replay->hash;
    return out;
  });
}

std::optional<std::uint32_t> failing_thread_of(const RunRecord& record, const localize::Trace& trace) {
  switch (static_cast<ShimOutcome>(record.outcome)) {
    case ShimOutcome::Assertion:
    case ShimOutcome::Hang: return record.failure.thread;
    case ShimOutcome::Signal: return record.signal.thread;
    case ShimOutcome::Deadlock:
    case ShimOutcome::Diverged:
    case ShimOutcome::ShimError: return std::nullopt;
    default: break;
  }
  if (trace.events.empty()) return std::nullopt;
  return trace.events.back().thread;
}

Prediction predict_from_passing_trace(const localize::Trace& trace, const std::string& executable,
                                      const PredictSettings& settings) {
  Prediction p;
  std::string error;
  auto functions = find_failure_site_functions(executable, settings.failure_sites, &error);
  if (!functions) {
    p.handle = trace.handle;
    p.problem = "cannot look for failure sites: " + error;
    return p;
  }
  const std::uint32_t module = module_of(trace, executable);
  std::vector<localize::FailureFunction> sites;
  for (const FailureSiteFunction& f : *functions) {
    sites.push_back({module, f.low, f.high, f.name});
    p.failure_functions.push_back(f.name);
  }
  p.selection = "failure-site functions";
  for (std::size_t i = 0; i < p.failure_functions.size(); ++i)
    p.selection += (i ? ", " : ": ") + p.failure_functions[i];
  predict_orders_into(p, trace, localize::critical_reads_in_functions(trace, sites, settings.max_distance),
                      settings);
  if (functions->empty()) p.problem = "no failure-site function found in " + executable;
  return p;
}

Prediction predict_from_failing_trace(const localize::Trace& trace, std::uint32_t failing_thread,
                                      const PredictSettings& settings) {
  Prediction p;
  p.run_failed = true;
  p.selection = "failing thread T" + std::to_string(failing_thread);
  predict_orders_into(p, trace, localize::critical_reads_before_failure(trace, failing_thread, settings.max_distance),
                      settings);
  return p;
}

Prediction predict_from_run(const LaunchTarget& target, const RunSpec& spec, double timeout_seconds,
                            const std::string& target_name, const PredictSettings& settings) {
  TracedRun run = run_traced(target, spec, timeout_seconds, target_name);
  Prediction p;
  if (!run.result.failed()) {
    p = predict_from_passing_trace(run.trace, target.path, settings);
  } else if (run.failing_thread) {
    p = predict_from_failing_trace(run.trace, *run.failing_thread, settings);
  } else {
    p.handle = run.trace.handle;
    p.run_failed = true;
    p.problem = "the run failed without a single failing thread";
  }
  if (run.trace.truncated && p.problem.empty()) p.problem = "the trace is truncated";
  return p;
}

std::string render_prediction(const Prediction& p) {
  const std::string run = std::string(p.run_failed ? "failing" : "passing") + " run " + p.handle;
  // Nothing selected and nothing predicted (a deadlock has no failing thread to start from): the
  // reason, not an empty header "(; 0 critical reads): 0".
  if (p.selection.empty() && p.orders.empty() && !p.problem.empty()) {
    return "ConSeq: no prediction from the " + run + ": " + p.problem + "\n";
  }
  std::string text = "predicted orders from " + run + " (" + (p.selection.empty() ? "" : p.selection + "; ") +
                     std::to_string(p.critical_reads) + " critical reads): " + std::to_string(p.orders.size()) + "\n";
  if (!p.problem.empty()) text += "  note: " + p.problem + "\n";
  for (std::size_t i = 0; i < p.orders.size(); ++i)
    text += "  " + std::to_string(i + 1) + ". " + p.orders[i].line + "\n";
  return text;
}

nlohmann::json prediction_json(const Prediction& p) {
  nlohmann::json orders = nlohmann::json::array();
  for (std::size_t i = 0; i < p.orders.size(); ++i) {
    const PredictedOrder& o = p.orders[i];
    const localize::OrderCandidate& c = o.candidate;
    nlohmann::json steps = nlohmann::json::array();
    for (std::uint32_t s = 0; s < o.directive.count; ++s) {
      const ForceStep& step = o.directive.steps[s];
      steps.push_back({{"site", hex(step.site)}, {"access", access_name(step.access)}, {"role", step.role}});
    }
    orders.push_back({
        {"rank", i + 1},
        {"kind", localize::order_kind_name(c.kind)},
        {"text", o.line},
        {"distance", c.distance},
        {"occurrences", c.occurrences},
        {"read_event", c.read},
        {"write_event", c.write},
        {"value_read", c.value_read},
        {"value_possible", c.value_possible_known ? nlohmann::json(c.value_possible) : nlohmann::json()},
        {"directive", {{"kind", "order"}, {"hold_limit", o.directive.hold_limit}, {"steps", steps}}},
    });
  }
  return {
      {"handle", p.handle},
      {"run_failed", p.run_failed},
      {"selection", p.selection},
      {"failure_functions", p.failure_functions},
      {"critical_reads", p.critical_reads},
      {"problem", p.problem.empty() ? nlohmann::json() : nlohmann::json(p.problem)},
      {"orders", orders},
  };
}

}  // namespace ctrlsched::driver

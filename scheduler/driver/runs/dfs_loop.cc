// The dfs loop (see dfs_loop.h).
#include "runs/dfs_loop.h"

#include <algorithm>
#include <chrono>

#include "ctrlsched/dfs_explorer.h"
#include "runs/run_collect.h"
#include "runs/run_record_region.h"
#include "runs/stop_request.h"

namespace ctrlsched::driver {
namespace {

// Enough runs per batch to keep every slot busy while the last ones of the batch finish.
constexpr std::size_t kBatchPerJob = 4;

// What one finished run leaves for the explorer, copied out of its record.
struct RunData {
  RunResult result;
  std::optional<DfsLog> log;
  bool released = false;   // the watchdog released a thread blocked outside the model
  bool spinning = false;   // the watchdog preempted uncontrolled spinning
  bool precise = false;    // every shared access was a point: dependence is known
};

std::string numbered(const char* what, std::uint64_t number) {
  return std::string(what) + " (first in schedule " + std::to_string(number) + ")";
}

void add_gap(std::vector<std::string>& gaps, std::vector<bool>& seen, std::size_t kind, std::string line) {
  if (seen[kind]) return;
  seen[kind] = true;
  gaps.push_back(std::move(line));
}

}  // namespace

DfsLoopResult run_dfs_loop(const LaunchTarget& target, const DfsLoopSettings& settings, const DfsLoopHooks& hooks,
                           const ClassifyContext& context, const std::string& target_name) {
  DfsLoopResult out;
  DfsExplorer explorer(settings.preemption_bound, settings.reduction);
  PoolOptions pool_options;
  pool_options.jobs = std::max(1u, settings.jobs);
  pool_options.timeout = std::chrono::duration<double>(settings.timeout_seconds);
  pool_options.capture_output = true;
  pool_options.tick = hooks.tick;
  pool_options.fork_server = settings.fork_server;
  WorkerPool pool(target, pool_options);
  std::vector<bool> gap_seen(4, false);
  std::uint64_t started = 0;

  while (!explorer.complete()) {
    std::size_t want = std::size_t{pool_options.jobs} * kBatchPerJob;
    if (settings.max_schedules) {
      if (started >= *settings.max_schedules) {
        out.max_schedules_reached = true;
        break;
      }
      want = static_cast<std::size_t>(std::min<std::uint64_t>(want, *settings.max_schedules - started));
    }
    std::vector<DfsBranch> batch = explorer.next_batch(want);
    const std::uint64_t base = out.runs.size();
    std::vector<std::optional<RunData>> data(batch.size());
    try {
      pool.run(
          batch.size(),
          [&](std::uint64_t i) {
            RunSpec spec = settings.spec;
            spec.seed = base + i;
            RunJob job{run_config_for(spec), encode_input_log(batch[i].prefix, kLogRegionBytes)};
            return job;
          },
          [&](const FinishedRun& run) {
            RunSpec spec = settings.spec;
            spec.seed = base + run.index;
            RunData d;
            d.result = collect_result(run, spec, context, target_name);
            const RunRecord& record = run.region.record();
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(&record);
            d.log = read_dfs_log({bytes + kDfsLogOffset, static_cast<std::size_t>(kDfsLogEnd - kDfsLogOffset)});
            d.released = record.uncontrolled.count > 0;
            d.spinning = record.spin.count > 0;
            d.precise = record.instrumented != 0 && static_cast<PointsMode>(record.config.points) != PointsMode::Sync;
            if (hooks.finished) hooks.finished(base + run.index, run, d.result);
            data[static_cast<std::size_t>(run.index)] = std::move(d);
            return true;
          });
    } catch (const Interrupted&) {
      out.interrupted = true;
    }
    started += batch.size();
    // Report in batch order up to the first gap (a run killed by the stop request) or the stop.
    std::size_t i = 0;
    for (; i < batch.size() && data[i]; ++i) {
      RunData& d = *data[i];
      const std::uint64_t number = base + i;
      std::vector<DfsPoint> points;
      if (d.log) points = std::move(d.log->points);
      if (!d.precise) {
        // Without a point at every shared access a step's accesses are unknown: every step
        // depends on every other, which leaves the reduction nothing to prune.
        for (DfsPoint& p : points) {
          for (DfsOption& o : p.options) o.pending = PendingKind::None;
        }
      }
      const DfsRunVerdict verdict = explorer.explored(batch[i], points, d.precise);
      bool redundant = verdict.redundant;
      if (!d.log) add_gap(out.gaps, gap_seen, 0, numbered("a run left no readable step log", number));
      else if (d.log->truncated) add_gap(out.gaps, gap_seen, 0, numbered("a run had more decisions than the step log holds", number));
      if (!verdict.followed) {
        add_gap(out.gaps, gap_seen, 1,
                numbered("a run did not follow its decision prefix: the program's choices are not all under ctrlsched's control", number));
      }
      if (d.released) {
        add_gap(out.gaps, gap_seen, 2, numbered("the watchdog released a thread blocked outside the model", number));
      }
      if (d.spinning) {
        add_gap(out.gaps, gap_seen, 3, numbered("the watchdog preempted a thread spinning without scheduling points", number));
      }
      const bool failed = d.result.failed();
      if (failed) redundant = false;  // a failing schedule is reported as one, whatever it is equivalent to
      out.preemptions.push_back(batch[i].preemptions);
      out.redundant.push_back(redundant);
      out.runs.push_back(std::move(d.result));
      out.schedules += !redundant;
      out.redundant_runs += redundant;
      out.failures += failed;
      if (hooks.counted) hooks.counted(out.runs.size(), out.failures);
      if (out.failures >= settings.stop_after) {
        out.stopped_at_failures = true;
        ++i;
        break;
      }
    }
    // Branches handed out but not reported go back into the count of what is left.
    out.branches_left += batch.size() - i;
    if (out.interrupted || out.stopped_at_failures) break;
  }
  out.branches_left += explorer.pending();
  return out;
}

}  // namespace ctrlsched::driver

// Turning a finished run into a RunResult (see run_collect.h).
#include "runs/run_collect.h"

#include "exit_codes.h"
#include "runs/access_pairs.h"
#include "runs/run_notes.h"

namespace ctrlsched::driver {
namespace {

std::string first_line(const std::string& text) {
  const std::size_t start = text.starts_with("…") ? text.find('\n') + 1 : 0;
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

RunResult collect_result(const FinishedRun& run, RunSpec spec, const ClassifyContext& context,
                         const std::string& target) {
  const RunRecord& record = run.region.record();
  Classification c = classify(record, run.exit, context);
  if (c.problem == LaunchProblem::CannotRun) {
    std::string message = target + " could not start (exit status 127 before the ctrlsched shim took control)";
    const std::string output = run.capture ? first_line(run.capture->tail()) : std::string();
    if (!output.empty()) message += ": " + output;
    throw DriverError(ExitCode::CannotRun, message);
  }
  if (c.problem == LaunchProblem::ShimFailed) {
    throw DriverError(ExitCode::CannotRun, "the ctrlsched shim could not start in " + target + ": " +
                                               record_text(record.failure.message));
  }
  if (c.problem == LaunchProblem::ShimNotLoaded) {
    throw DriverError(ExitCode::CannotRun,
                      target + " ran without the ctrlsched shim (it never took control: a setuid program, a "
                               "loader that ignores LD_PRELOAD, or a shim library from another build)");
  }
  RunResult result;
  result.seed = spec.seed;
  result.kind = c.kind;
  result.failure = std::move(c.failure);
  result.schedule_hash = record.schedule_hash;
  // A run we killed stopped at a wall-clock moment: its hash is no promise a replay could keep.
  if (run.exit.timed_out) {
    spec.expected_hash.reset();
  } else {
    spec.expected_hash = record.schedule_hash;
  }
  result.handle = to_handle(spec);
  result.steps = record.steps;
  result.decisions = record.decisions;
  result.preemptions = record.preemptions;
  result.threads = record.threads_created;
  if (result.failed() && run.capture) result.output_tail = run.capture->tail();
  result.note = run_notes(record, context);
  result.access_pairs = read_access_pairs(record, context);
  return result;
}

}  // namespace ctrlsched::driver

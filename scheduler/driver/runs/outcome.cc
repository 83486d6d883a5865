// Outcome classification (see outcome.h). The per-kind rendering lives in failure_details.cc.
#include "runs/outcome.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runs/failure_details.h"

namespace ctrlsched::driver {
namespace {

std::string timeout_seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", seconds);
  return buffer;
}

bool passes(const ClassifyContext& context, int status) {
  return std::find(context.passing_exit_codes.begin(), context.passing_exit_codes.end(), status) !=
         context.passing_exit_codes.end();
}

}  // namespace

std::string signal_name(int number) {
  if (const char* abbrev = ::sigabbrev_np(number)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(number);
}

Classification classify(const RunRecord& record, const ChildExit& exit, const ClassifyContext& context) {
  Classification c;
  const bool exited = WIFEXITED(exit.wait_status);
  const int status = exited ? WEXITSTATUS(exit.wait_status) : 0;
  // 1. The program never got as far as the shim: exec or the dynamic loader failed.
  if (!record.shim_started && !exit.timed_out && exited && status == 127) {
    c.problem = LaunchProblem::CannotRun;
    return c;
  }
  auto fail = [&](FailureDetails details) {
    c.kind = details.kind;
    c.failure = std::move(details);
    return c;
  };
  // 2. We killed it: whatever the shim wrote last is incomplete.
  if (exit.timed_out) {
    return fail(simple_failure(OutcomeKind::Timeout, "timeout: killed after " + timeout_seconds_text(context.timeout_seconds) + " s",
                       "timeout"));
  }
  // 3. It ran without the shim: its outcome says nothing about schedules.
  if (!record.shim_started) {
    const bool startup_error = static_cast<ShimOutcome>(record.outcome) == ShimOutcome::ShimError;
    c.problem = startup_error ? LaunchProblem::ShimFailed : LaunchProblem::ShimNotLoaded;
    return c;
  }
  // 4. What the shim saw.
  switch (static_cast<ShimOutcome>(record.outcome)) {
    case ShimOutcome::Assertion: return fail(assertion_failure(record, context));
    case ShimOutcome::Signal: return fail(signal_failure(record, context));
    case ShimOutcome::Exit:
      if (passes(context, record.exit_status)) return c;
      return fail(simple_failure(OutcomeKind::Exit, "exit status " + std::to_string(record.exit_status),
                         "exit|" + std::to_string(record.exit_status)));
    case ShimOutcome::Deadlock: return fail(deadlock_failure(record, context));
    case ShimOutcome::Hang: return fail(hang_failure(record, context));
    case ShimOutcome::Unfinished: return fail(unfinished_details(record, context));
    case ShimOutcome::Diverged: {
      const DivergenceInfo& d = record.divergence;
      return fail(simple_failure(OutcomeKind::Diverged,
                         "diverged at decision " + std::to_string(d.decision_index) + " (step " +
                             std::to_string(d.step) + "): " + record_text(d.what),
                         "diverged"));
    }
    case ShimOutcome::ShimError: {
      const std::string message = record_text(record.failure.message);
      return fail(simple_failure(OutcomeKind::Error, "shim error: " + message, "error|" + message));
    }
    case ShimOutcome::None: break;
  }
  // 5. The wait status.
  if (WIFSIGNALED(exit.wait_status)) {
    const std::string name = signal_name(WTERMSIG(exit.wait_status));
    return fail(simple_failure(OutcomeKind::Signal, "killed by " + name, "signal|" + name));
  }
  if (exited && !passes(context, status)) {
    return fail(simple_failure(OutcomeKind::Exit, "exit status " + std::to_string(status), "exit|" + std::to_string(status)));
  }
  return c;
}

std::string uncontrolled_note(const RunRecord& record, const ClassifyContext& context) {
  const UncontrolledInfo& u = record.uncontrolled;
  if (u.count == 0) return {};
  std::string note = "the watchdog released T" + std::to_string(u.thread) + ", blocked outside the model";
  if (u.syscall >= 0) note += " in system call " + std::to_string(u.syscall);
  const std::string location = record_text(u.location.text);
  if (!location.empty()) note += " at " + locate(context, location).text;
  if (u.count > 1) note += " (" + std::to_string(u.count) + " times)";
  note += ": not reproducible bit for bit, the released thread ran uncontrolled";
  return note;
}

}  // namespace ctrlsched::driver

// Exit codes of the `ctrlsched` command, and the one exception type that carries them.
//
// Scripts and CI act on these codes, so they are declared once here and documented in
// docs/exit-codes.md. Every error path of the driver ends in a DriverError with one of these codes;
// main() turns it into a single "ctrlsched: <what>" line, never a stack trace.
#pragma once

#include <stdexcept>
#include <string>

namespace ctrlsched::driver {

enum class ExitCode : int {
  Ok = 0,           // no failure found (replay: the replayed run passed)
  Failures = 1,     // at least one seed failed (replay: the failure reproduced)
  Usage = 2,        // bad command line
  CannotRun = 3,    // the target cannot run under ctrlsched (missing, script, static, wrong
                    // architecture, not executable, the shim did not load)
  Diverged = 4,     // replay left the recorded schedule
  BadSchedule = 5,  // schedule file unreadable or corrupt, or a malformed handle
  Internal = 6,     // our own failure: shim library missing, memfd/fork failed, uncaught error
  BadStore = 7,     // --store: the file is not a ctrlsched run store (not SQLite, corrupt, newer)
};

inline int to_int(ExitCode code) { return static_cast<int>(code); }

// An error that ends the command: `message` is one line without the "ctrlsched: " prefix.
class DriverError : public std::runtime_error {
 public:
  DriverError(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

[[noreturn]] inline void usage_error(const std::string& message) {
  throw DriverError(ExitCode::Usage, message);
}

}  // namespace ctrlsched::driver

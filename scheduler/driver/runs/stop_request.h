// A stop asked for from outside (Ctrl-C, SIGTERM, SIGHUP) while runs are in flight. Test
// processes live in their own process groups (so a timeout can kill all they spawned), which also
// means a terminal's Ctrl-C never reaches them: the worker pool polls this flag and kills its
// children itself before the driver dies, or they would run on unsupervised. The signal handlers
// that set it are the command line's (cli/signals.h).
//
// The pool also registers every child's process group here, so that a second signal, which
// kills the command at once from inside the signal handler, can take them down first
// (kill_registered_children is async-signal-safe). A child outlives a SIGKILL of the driver
// neither way: it is launched with PR_SET_PDEATHSIG.
#pragma once

#include <sys/types.h>

#include <exception>

namespace ctrlsched::driver {

// Thrown by the worker pool once it has killed and reaped its children after a stop request.
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

// Async-signal-safe: only stores the signal number.
void request_stop(int signal_number) noexcept;
bool interrupted();
// The signal that asked for the stop, 0 when none did.
int stop_signal();

// The process groups of the test processes in flight (pid = process group id).
void register_child(pid_t pid) noexcept;
void unregister_child(pid_t pid) noexcept;
// Async-signal-safe: SIGKILL to every registered process group.
void kill_registered_children() noexcept;

}  // namespace ctrlsched::driver

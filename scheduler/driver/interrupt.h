// Ctrl-C / SIGTERM while runs are in flight. Test processes live in their own process groups (so
// a timeout can kill all they spawned), which also means a terminal's Ctrl-C never reaches them:
// the driver must kill them itself before it dies, or they would run on unsupervised.
#pragma once

#include <exception>

namespace ctrlsched::driver {

// Thrown by the worker pool once it has killed and reaped its children after a signal.
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

// Installs SIGINT/SIGTERM/SIGHUP handlers that only record the signal (no SA_RESTART, so a
// blocking poll() returns EINTR).
void install_interrupt_handlers();
bool interrupted();
// Restores the default action and re-raises the recorded signal, so our parent sees how we died.
[[noreturn]] void die_of_interrupt();

}  // namespace ctrlsched::driver

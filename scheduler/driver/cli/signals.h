// Ctrl-C / SIGTERM / SIGHUP: the handlers only record the signal as a stop request
// (runs/stop_request.h), which the worker pool acts on; once it has killed its runs, the command
// dies of the same signal so that its parent sees how it ended.
#pragma once

namespace ctrlsched::driver {

// Installs SIGINT/SIGTERM/SIGHUP handlers without SA_RESTART, so a blocking poll() returns EINTR.
void install_interrupt_handlers();
// Restores the default action and re-raises the recorded signal.
[[noreturn]] void die_of_interrupt();

}  // namespace ctrlsched::driver

// Ctrl-C / SIGTERM / SIGHUP. The first signal only records a stop request
// (runs/stop_request.h): the worker pool kills the runs in flight, a seeds run reports the seeds
// that finished (marked interrupted) and writes its JSON report and saved schedules, then the
// command dies of the same signal so that its parent sees how it ended. A second signal kills
// the test processes in flight and the command at once, from the handler.
#pragma once

namespace ctrlsched::driver {

// Installs SIGINT/SIGTERM/SIGHUP handlers without SA_RESTART, so a blocking poll() returns EINTR.
void install_interrupt_handlers();
// Restores the default action and re-raises the recorded signal.
[[noreturn]] void die_of_interrupt();

}  // namespace ctrlsched::driver

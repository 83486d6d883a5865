// Signal handlers of the command (see signals.h).
#include "cli/signals.h"

#include <signal.h>
#include <unistd.h>

#include <initializer_list>

#include "runs/stop_request.h"

namespace ctrlsched::driver {
namespace {

// Async-signal-safe throughout: atomics, kill, sigaction, raise, _exit.
void on_signal(int sig) {
  if (!interrupted()) {
    request_stop(sig);
    return;
  }
  // Second signal: the user does not want to wait for the partial report.
  kill_registered_children();
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(sig, &action, nullptr);
  sigset_t this_signal;
  sigemptyset(&this_signal);
  sigaddset(&this_signal, sig);
  ::sigprocmask(SIG_UNBLOCK, &this_signal, nullptr);  // blocked while its handler runs
  ::raise(sig);
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
}

void die_of_interrupt() {
  const int sig = stop_signal() ? stop_signal() : SIGINT;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  ::_exit(128 + sig);
}

}  // namespace ctrlsched::driver

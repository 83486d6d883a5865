// Signal handlers of the command (see signals.h).
#include "cli/signals.h"

#include <signal.h>
#include <unistd.h>

#include <initializer_list>

#include "runs/stop_request.h"

namespace ctrlsched::driver {
namespace {

void on_signal(int sig) { request_stop(sig); }

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

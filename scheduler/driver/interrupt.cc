// Signal flag for Ctrl-C handling (see interrupt.h).
#include "interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <initializer_list>

namespace ctrlsched::driver {
namespace {

volatile sig_atomic_t g_signal = 0;

void on_signal(int sig) { g_signal = sig; }

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
}

bool interrupted() { return g_signal != 0; }

void die_of_interrupt() {
  const int sig = g_signal ? g_signal : SIGINT;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  ::_exit(128 + sig);
}

}  // namespace ctrlsched::driver

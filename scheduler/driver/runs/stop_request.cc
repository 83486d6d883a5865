// The stop flag (see stop_request.h).
#include "runs/stop_request.h"

#include <signal.h>

namespace ctrlsched::driver {
namespace {

volatile sig_atomic_t g_signal = 0;

}  // namespace

void request_stop(int signal_number) noexcept { g_signal = signal_number; }

bool interrupted() { return g_signal != 0; }

int stop_signal() { return g_signal; }

}  // namespace ctrlsched::driver

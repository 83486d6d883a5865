// Uncontrolled spinning: a thread that runs without reaching a scheduling point while other
// threads wait for the baton (a spin-wait on a volatile flag or a relaxed atomic in code that is
// not instrumented) would keep the baton until the run times out, although the thread it waits
// for only needs a turn. The watchdog (watchdog.cc) notices the baton holder using more CPU time
// than the spin budget without a step while another thread could run, and sends it a signal; the handler here makes the spinner take a Yield point right where it is, so the
// strategy picks who runs next and the spinner parks on its baton inside the handler until it is
// picked again. Only one thread ever runs engine code, as at any other point.
//
// The preemption happens at a moment chosen by time, not by the program: the run is recorded
// (SpinInfo) and reported with a note. A thread that spins until another thread acts is
// preempted at the same step in every run of the seed, so its schedule replays; a long
// computation that merely outlasted the budget may be preempted at another step next time.
#pragma once

#include <cstdint>

#include "thread_table.h"

namespace ctrlsched::shim {

void install_spin_handler();
// Microseconds a thread may run without a step while others wait; 0 = never preempt.
std::uint64_t spin_budget_us();
// Watchdog side: another thread could take the baton from `holder` (read without the baton, so
// only a hint; the handler checks again in the holder's own context).
bool others_could_run();
// Watchdog side: asks `holder` to take a Yield point now.
void request_spin_preemption(const Thread* holder);

}  // namespace ctrlsched::shim

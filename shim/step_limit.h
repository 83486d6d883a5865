// What happens when a run reaches --max-steps: a livelock, or a long run still making progress?
//
// The run goes on for a probe window of probe_steps() more steps, with the schedule unchanged (the
// probe only watches, so replays see the same run). Every point of the window is an event: the
// running thread, and at an instrumented access also its location and the value it reads or
// overwrites. A livelock cycles through a small set of such events, so the second half of the
// window sees nothing the first half did not; a run that computes keeps producing new values (a
// loop counter, new data), new locations or new threads. Judged by membership in a fixed-size
// bitmap (no allocation: this runs in someone else's process), which can only under-count new
// events, never invent them.
//
// Limits (docs/model.md): an unbounded counter in a livelock looks like progress; without
// instrumentation only thread starts are visible, so a long uninstrumented run looks like a
// livelock, and its message says so.
#pragma once

#include <cstdint>

#include "runtime.h"

namespace ctrlsched::shim {

// Steps the probe window adds past max_steps.
std::uint64_t probe_steps();

// The running thread `me` took a step past max_steps: count it, and end the run when the window
// is over (Hang for a livelock, Unfinished for progress).
void step_past_limit(Thread* me);

// An instrumented access past max_steps: its location and value are part of the event.
void note_access_past_limit(const Thread* me, std::uintptr_t address, std::uintptr_t pc,
                            std::uint64_t value);

}  // namespace ctrlsched::shim

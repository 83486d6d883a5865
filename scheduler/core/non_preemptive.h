// The choice a non-preemptive schedule makes where the current thread cannot or will not go on:
// shared by the preemption strategy (shrink's replays) and dfs, whose schedules both continue
// without preempting after their chosen switch points.
#pragma once

#include "ctrlsched/strategy.h"

namespace ctrlsched {

// At a Yield of an enabled current thread: the next other thread in id order after it, round
// robin (so a yield loop lets every other thread progress), one in a timed wait only if nothing
// else can run, else the current thread. Otherwise the lowest-id candidate not in a timed wait
// (its timeout then fires only when nothing else can run), else the first candidate.
ThreadId non_preemptive_switch(const SchedulingPoint& point);

}  // namespace ctrlsched

// Yields and sleeps. Time is virtual (virtual_time.h): a sleep never waits on the wall clock, it
// is a Yield point (the strategy may run other threads; PCT lowers the sleeper's priority) that
// advances the virtual clock by the duration and returns at once. Sleeps therefore order
// nothing, which is what lets ctrlsched find bugs that sleeps hide. Sleeps are cancellation
// points (models/cancel.cc): a cancel pending before the sleep or arriving while it yields acts.
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "../engine.h"
#include "../virtual_time.h"
#include "interpose.h"

using namespace ctrlsched::shim;
using ctrlsched::PointKind;

CTRLSCHED_EXPORT int sched_yield(void) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sched_yield);
  point(me, PointKind::Yield);
  return 0;
}

CTRLSCHED_EXPORT unsigned sleep(unsigned seconds) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(sleep, seconds);
  cancellation_point(me);
  point(me, PointKind::Yield);
  cancellation_point(me);
  virtual_clock_advance(std::uint64_t{seconds} * 1'000'000'000);
  return 0;
}

CTRLSCHED_EXPORT int usleep(useconds_t usec) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(usleep, usec);
  cancellation_point(me);
  point(me, PointKind::Yield);
  cancellation_point(me);
  virtual_clock_advance(std::uint64_t{usec} * 1'000);
  return 0;
}

CTRLSCHED_EXPORT int nanosleep(const timespec* request, timespec* remaining) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(nanosleep, request, remaining);
  if (!valid_timeout(request) || request->tv_sec < 0) {
    errno = EINVAL;
    return -1;
  }
  cancellation_point(me);
  point(me, PointKind::Yield);
  cancellation_point(me);
  virtual_clock_reach(virtual_deadline_after(request));
  if (remaining) *remaining = timespec{};
  return 0;
}

CTRLSCHED_EXPORT int clock_nanosleep(clockid_t clock, int flags, const timespec* request,
                                     timespec* remaining) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(clock_nanosleep, clock, flags, request, remaining);
  if (!valid_timeout(request) || request->tv_sec < 0) return EINVAL;
  cancellation_point(me);
  point(me, PointKind::Yield);
  cancellation_point(me);
  if (flags & TIMER_ABSTIME) virtual_clock_reach(virtual_deadline(Timeout{clock, request}));
  else virtual_clock_reach(virtual_deadline_after(request));
  if (remaining && !(flags & TIMER_ABSTIME)) *remaining = timespec{};
  return 0;
}

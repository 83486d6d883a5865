// Clock reads return virtual time for controlled threads (virtual_time.h): POSIX's clock_gettime,
// gettimeofday and time, and C11's timespec_get, which glibc implements without calling
// clock_gettime through the PLT, so interposing clock_gettime alone leaves it on the wall clock.
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "../virtual_time.h"
#include "interpose.h"

using namespace ctrlsched::shim;

CTRLSCHED_EXPORT int clock_gettime(clockid_t clock, timespec* out) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(clock_gettime, clock, out);
  std::optional<timespec> now = virtual_clock_read(clock);
  if (!now) return REAL(clock_gettime)(clock, out);
  *out = *now;  // glibc declares `out` non-null
  return 0;
}

CTRLSCHED_EXPORT int gettimeofday(struct timeval* __restrict out, void* __restrict zone) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(gettimeofday, out, zone);
  std::optional<timespec> now = virtual_clock_read(CLOCK_REALTIME);
  if (!now) return REAL(gettimeofday)(out, zone);
  *out = timeval{now->tv_sec, now->tv_nsec / 1000};  // glibc declares `out` non-null
  return 0;
}

CTRLSCHED_EXPORT time_t time(time_t* out) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(time, out);
  std::optional<timespec> now = virtual_clock_read(CLOCK_REALTIME);
  if (!now) return REAL(time)(out);
  time_t seconds = now->tv_sec;
  if (out) *out = seconds;
  return seconds;
}

CTRLSCHED_EXPORT int timespec_get(timespec* out, int base) {
  CTRLSCHED_FORWARD_UNLESS_CONTROLLED(timespec_get, out, base);
  // TIME_UTC is the only base C11 defines; others (C23's TIME_MONOTONIC, ...) stay real.
  std::optional<timespec> now = base == TIME_UTC ? virtual_clock_read(CLOCK_REALTIME) : std::nullopt;
  if (!now) return REAL(timespec_get)(out, base);
  *out = *now;
  return base;
}

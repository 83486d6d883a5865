// Virtual time. Under ctrlsched the test never reads the wall clock: clock_gettime, gettimeofday,
// time and timespec_get(TIME_UTC) return a virtual clock, so nothing the test computes from time
// (a wait_for that re-checks steady_clock after waking, a timeout loop, a log timestamp) can
// differ between two runs of one seed.
//
// The clock advances only at deterministic moments: by 1 µs at every clock read (so a loop that
// polls the time until a deadline terminates), by the requested duration at every sleep, and to
// the deadline of a timed wait whose timeout the strategy fires. Realtime clocks start at
// 2025-01-01T00:00:00Z, monotonic ones at 1000 s; CPU-time clocks stay real.
//
// CTRLSCHED_REAL_CLOCK=1 in the environment keeps the wall clock for clock reads (timeouts and
// sleeps stay virtual): for measuring code under ctrlsched, e.g. a benchmark. Anything the test
// computes from time is then no longer reproducible.
#pragma once

#include <time.h>

#include <cstdint>
#include <optional>

namespace ctrlsched::shim {

// A timed wait's deadline as the caller gave it: an absolute time on `clock`.
struct Timeout {
  clockid_t clock = CLOCK_REALTIME;
  const timespec* abstime = nullptr;
};

void virtual_clock_configure();  // at start-up: reads CTRLSCHED_REAL_CLOCK
// nullopt for clocks that are not virtualized (CPU-time clocks, unknown ids, or all of them with
// CTRLSCHED_REAL_CLOCK=1).
std::optional<timespec> virtual_clock_read(clockid_t clock);
void virtual_clock_advance(std::uint64_t nanoseconds);
// A deadline on the virtual timeline (ns), 0 if there is none.
std::uint64_t virtual_deadline(const Timeout& timeout);
// For relative timeouts (futex waits): now + duration.
std::uint64_t virtual_deadline_after(const timespec* duration);
// A fired timeout: the clock moves to its deadline if that is later.
void virtual_clock_reach(std::uint64_t deadline);

}  // namespace ctrlsched::shim

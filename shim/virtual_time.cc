#include "virtual_time.h"

#include "runtime.h"

#include <cstdlib>

namespace ctrlsched::shim {

namespace {

constexpr std::uint64_t kNanos = 1'000'000'000;
constexpr std::uint64_t kRealtimeBase = 1'735'689'600ull * kNanos;  // 2025-01-01T00:00:00Z
constexpr std::uint64_t kMonotonicBase = 1'000ull * kNanos;
constexpr std::uint64_t kReadTick = 1'000;  // 1 µs per clock read

std::uint64_t g_now = 0;  // ns since the run began; touched only by the baton holder
bool g_real_clock = false;

std::optional<std::uint64_t> base_of(clockid_t clock) {
  switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_REALTIME_ALARM:
    case CLOCK_TAI:
      return kRealtimeBase;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
    case CLOCK_BOOTTIME_ALARM:
      return kMonotonicBase;
    default:
      return std::nullopt;
  }
}

std::uint64_t to_ns(const timespec& t) {
  if (t.tv_sec < 0) return 0;
  return static_cast<std::uint64_t>(t.tv_sec) * kNanos + static_cast<std::uint64_t>(t.tv_nsec);
}

}  // namespace

void virtual_clock_configure() {
  const char* value = std::getenv("CTRLSCHED_REAL_CLOCK");
  g_real_clock = value != nullptr && value[0] == '1';
}

std::optional<timespec> virtual_clock_read(clockid_t clock) {
  std::optional<std::uint64_t> base = base_of(clock);
  if (!base || g_real_clock) return std::nullopt;
  g_now += kReadTick;
  std::uint64_t t = *base + g_now;
  return timespec{static_cast<time_t>(t / kNanos), static_cast<long>(t % kNanos)};
}

void virtual_clock_advance(std::uint64_t nanoseconds) { g_now += nanoseconds; }

std::uint64_t virtual_deadline(const Timeout& timeout) {
  std::optional<std::uint64_t> base = base_of(timeout.clock);
  if (timeout.abstime == nullptr || !base) return 0;
  std::uint64_t at = to_ns(*timeout.abstime);
  return at > *base ? at - *base : 0;
}

std::uint64_t virtual_deadline_after(const timespec* duration) {
  return duration ? g_now + to_ns(*duration) : 0;
}

void virtual_clock_reach(std::uint64_t deadline) {
  if (deadline > g_now) g_now = deadline;
}

}  // namespace ctrlsched::shim

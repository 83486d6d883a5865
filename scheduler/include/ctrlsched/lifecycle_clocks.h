// Happens-before from thread creation and join alone, online, for the shim's Falcon collector.
//
// An order that creation or join imposes is the same in every run: main's writes before it
// starts a worker come before the worker's reads, a worker's writes before main's reads after
// joining it. Such an order is no interleaving any schedule could change, so it cannot be the
// cause of a failure that depends on the schedule, yet Falcon's window reports it whenever the two
// accesses happen to share a window (corpus table_resize: main's insert and the constructor,
// read by the writer's resize, ranked above the resize race). The collector asks `ordered` for
// each cross-thread step of a pattern and drops a pattern whose every step is so ordered.
// Locks, condition variables and atomics are left out on purpose: the order of two critical
// sections is exactly what a schedule chooses.
//
// Vector clocks over the first kThreads threads, kept per "version" of a thread's knowledge: a
// version is made when the thread starts (its creator's clock) and at each join (the joined
// thread's exit clock added). An access records its thread's epoch and version (`stamp`), so an
// order can be decided after the fact, when a window drains at the end of the run. A thread's
// own epoch ticks when it creates a thread and when it exits. Threads beyond kThreads, and a
// thread's knowledge after kVersions versions, are unknown: `ordered` says false, which only
// keeps a pattern that could have been dropped.
//
// Not localize's HappensBefore (ctrlsched/localize/happens_before.h), which computes the full
// relation of a recorded trace offline, with maps and every sync object: the shim needs a bounded,
// online, allocation-free relation of two event kinds, decided after the fact for drained windows.
//
// Header-only, allocation-free, exception-free, zero-initialized storage (the shim keeps one in
// static memory: 256 KiB, touched only as far as threads exist); the rules are unit-tested
// (tests/unit/localize_lifecycle_clocks_test.cc, beside the golden tests of the window).
#pragma once

#include <cstdint>

namespace ctrlsched {

class LifecycleClocks {
 public:
  static constexpr std::uint32_t kThreads = 64;
  static constexpr std::uint32_t kVersions = 16;
  static constexpr std::uint8_t kUnknown = 0xff;

  // A thread's epoch ticks once per tracked child it creates and once when it exits, so it stays
  // below kThreads + 2 and fits a byte (the Falcon window copies stamps with every access).
  struct Stamp {
    std::uint8_t epoch = 0;
    std::uint8_t version = kUnknown;
  };
  static_assert(kThreads + 2 < 256);

  // The start of a run: T0 (main) knows itself only.
  void reset() {
    for (std::uint32_t t = 0; t < kThreads; ++t) {
      versions_[t] = 0;
      exited_[t] = false;
    }
    clear(clock(0, 0));
    clock(0, 0)[0] = 1;
    versions_[0] = 1;
  }

  void on_create(std::uint32_t parent, std::uint64_t child) {
    if (!known(parent) || child >= kThreads || versions_[child] != 0) return;
    const std::uint32_t* from = current(parent);
    std::uint32_t* into = clock(static_cast<std::uint32_t>(child), 0);
    for (std::uint32_t u = 0; u < kThreads; ++u) into[u] = from[u];
    into[child] = 1;
    versions_[child] = 1;
    ++current(parent)[parent];  // the parent's later accesses are not before the child's
  }

  void on_exit(std::uint32_t thread) {
    if (!known(thread)) return;
    for (std::uint32_t u = 0; u < kThreads; ++u) exit_clock_[thread][u] = current(thread)[u];
    exited_[thread] = true;
    ++current(thread)[thread];
  }

  void on_join(std::uint32_t joiner, std::uint64_t joined) {
    if (!known(joiner) || joined >= kThreads || !exited_[joined]) return;
    if (versions_[joiner] == kVersions) {
      versions_[joiner] = kVersions + 1;  // out of versions: unknown from here on
      return;
    }
    const std::uint32_t* before = current(joiner);
    std::uint32_t* after = clock(joiner, versions_[joiner]);
    for (std::uint32_t u = 0; u < kThreads; ++u) {
      const std::uint32_t theirs = exit_clock_[joined][u];
      after[u] = before[u] > theirs ? before[u] : theirs;
    }
    ++versions_[joiner];
  }

  // The epoch and knowledge of `thread` now, to be recorded with one of its accesses.
  Stamp stamp(std::uint32_t thread) const {
    if (!known(thread)) return {};
    return {static_cast<std::uint8_t>(current_const(thread)[thread]), static_cast<std::uint8_t>(versions_[thread] - 1)};
  }

  // Whether the access of thread `a` stamped `sa` happens before the access of thread `b` stamped
  // `sb` by creation and join (a != b; unknown stamps are never ordered).
  bool ordered(std::uint32_t a, Stamp sa, std::uint32_t b, Stamp sb) const {
    if (a == b || a >= kThreads || b >= kThreads || sa.version == kUnknown || sb.version == kUnknown) return false;
    return clocks_[b][sb.version][a] >= sa.epoch;
  }

 private:
  bool known(std::uint32_t thread) const {
    return thread < kThreads && versions_[thread] != 0 && versions_[thread] <= kVersions;
  }
  std::uint32_t* clock(std::uint32_t thread, std::uint32_t version) { return clocks_[thread][version]; }
  std::uint32_t* current(std::uint32_t thread) { return clocks_[thread][versions_[thread] - 1]; }
  const std::uint32_t* current_const(std::uint32_t thread) const { return clocks_[thread][versions_[thread] - 1]; }
  static void clear(std::uint32_t* c) {
    for (std::uint32_t u = 0; u < kThreads; ++u) c[u] = 0;
  }

  std::uint32_t clocks_[kThreads][kVersions][kThreads]{};
  std::uint32_t exit_clock_[kThreads][kThreads]{};
  std::uint32_t versions_[kThreads]{};  // versions made; 0 = not started, kVersions + 1 = unknown
  bool exited_[kThreads]{};
};

}  // namespace ctrlsched

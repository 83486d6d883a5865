// What the primitives (ctrlsched/inprocess/*.hpp) ask of the in-process engine. Not for tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "ctrlsched/inprocess/explore.hpp"
#include "ctrlsched/strategy.h"

namespace ctrlsched::detail {

struct FiberThread;

// FIFO of blocked fibers (intrusive, no allocation).
struct WaitQueue {
  FiberThread* head = nullptr;
  FiberThread* tail = nullptr;
  std::uint32_t size = 0;
  bool empty() const { return size == 0; }
};

enum class WaitKind : std::uint8_t { None, Join, Mutex, SharedRead, SharedWrite, Cond, Semaphore, Barrier };

// The engine-side state every primitive carries. A primitive's model state is reset the first
// time it is used in a run (run_epoch differs), so a static primitive starts each run fresh.
struct ModelBase {
  std::uint64_t run_epoch = 0;
  std::uint32_t serial = 0;          // order of first use in the run: names it in reports
  ThreadId holder = kNoThread;       // for reports: who holds it (mutexes)
  WaitQueue waiters;
};

// This OS thread is inside an explore run (including its teardown).
bool engine_on() noexcept;
// The run is being torn down: primitives do nothing and never block.
bool tearing_down() noexcept;
// True when `m` is used for the first time in this run: its waiters are cleared and the caller
// resets its own model state.
bool first_use(ModelBase& m, WaitKind kind) noexcept;

// Every primitive operation starts with one of these. They return false while the run is torn
// down (the operation then does nothing). Blocking operations pass releasing = false: in
// teardown they unwind the fiber (FiberUnwind), unless an exception is already in flight.
// Operations that typically run in destructors (unlock, notify, release) pass releasing = true
// and never throw.
bool sync_point(bool releasing);
bool yield_point();
bool access_point(const void* address, unsigned size, bool write, bool releasing);
// Thrown through a fiber to unwind it when its run is torn down; never catch it.
struct FiberUnwind {};
ThreadId self() noexcept;

// Blocks the current fiber on m.waiters until woken (or, if timed, until the strategy fires its
// timeout; then the virtual clock reaches `deadline`). Returns true on timeout.
bool block(ModelBase& m, WaitKind kind, bool timed = false, std::uint64_t deadline = 0);
// Wakes one waiter chosen by the strategy (pick_waiter); false if there was none.
bool wake_one(ModelBase& m, WakeKind kind);
void wake_all(ModelBase& m);
bool spurious_wakeup();
[[noreturn]] void fail(FailureKind kind, std::string message);

std::uint64_t virtual_now() noexcept;          // ns
void virtual_advance(std::uint64_t ns) noexcept;

FiberThread* spawn(std::function<void()> fn);
void join(FiberThread* t);
void detach(FiberThread* t);
ThreadId id_of(const FiberThread* t) noexcept;

}  // namespace ctrlsched::detail

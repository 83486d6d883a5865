#include "access.h"

#include <pthread.h>

#include <cstring>

#include "../engine.h"
#include "../stack.h"

namespace ctrlsched::shim {

namespace {
// Static TLS sits just below the thread pointer on x86-64 (TLS variant II); the thread control
// block follows it. Larger thread_local data is simply not filtered (costs steps, not results).
constexpr std::uintptr_t kStaticTlsBelow = 8 * 1024;
constexpr std::uintptr_t kTcbAbove = 4 * 1024;
bool g_instrumented_before_start = false;

// The first page is never mapped: an access there is a NULL dereference (NULL + field offset).
constexpr std::uintptr_t kFirstMappable = 4096;

// The memory the access is about to touch (its first 8 bytes at most). Safe to read: the program
// accesses these bytes right after the hook, and with the baton held nothing changes them first,
// so this is the value a read reads and the value a write overwrites (trace_format.h). Except in
// the first page: there the program itself must fault, at its own line, not the shim here (the
// failure's site, its identity for shrinking and replay, would otherwise be this function).
std::uint64_t value_at(std::uintptr_t address, unsigned size) {
  std::uint64_t value = 0;
  if (address < kFirstMappable) return value;
  std::memcpy(&value, reinterpret_cast<const void*>(address), size < 8 ? size : 8);
  return value;
}
// An instrumented spin-wait: the thread reads a few locations (at most Thread::kSpinLocations: a
// ring's full check reads its tail and its head) and finds each unchanged this many times in a
// row, with no write of its own in between. Its next point is then a Yield,
// so that PCT lowers the spinner's priority and the thread it waits for gets to run (without it,
// a spinner PCT ranks first re-reads the flag until --max-steps). Counted in steps and values,
// never in time, so it is part of the seed's schedule and replays.
constexpr std::uint32_t kSpinReads = 64;

}  // namespace

bool spin_read_streak(Thread* me, std::uintptr_t address, unsigned size, EventKind kind) {
  if (kind != EventKind::Read && kind != EventKind::AtomicLoad) {
    me->spin_locations = 0;
    me->spin_reads = 0;
    return false;
  }
  const std::uint64_t value = value_at(address, size);
  int i = 0;
  while (i < me->spin_locations && me->spin_addresses[i] != address) ++i;
  // A changed value, or one location too many, starts the streak again from this read.
  const bool known = i < me->spin_locations;
  if ((known && me->spin_values[i] != value) || (!known && i == Thread::kSpinLocations)) {
    me->spin_locations = 0;
    me->spin_reads = 0;
    i = 0;
  }
  if (i == me->spin_locations) {
    me->spin_addresses[i] = address;
    me->spin_values[i] = value;
    ++me->spin_locations;
  }
  if (++me->spin_reads < kSpinReads) return false;
  me->spin_reads = 0;
  return true;
}

void access_slow(Thread* me, std::uintptr_t address, unsigned size, EventKind kind,
                 std::uintptr_t pc, bool spin_yield) {
  if (me->state == ThreadState::Exited) return;
  ShimEntry entry(me);
  if (g_rt.access_points) {
    if (__builtin_expect(g_rt.forcing != nullptr, 0)) {
      // A directed strategy decides by what each stopped thread is about to do. Its points are
      // a plain run's (a spin-wait's read is a Yield there too): a forced run in the failing run's
      // context replays that run's decisions point by point.
      if (__builtin_expect(g_rt.steps >= g_rt.config.max_steps, 0))
        note_access_past_limit(me, address, pc, value_at(address, size));
      const bool yield = spin_yield || spin_read_streak(me, address, size, kind);
      me->pending = kind == EventKind::Read || kind == EventKind::AtomicLoad ? PendingKind::Read : PendingKind::Write;
      me->pending_site = site_of(pc);
      me->pending_address = address;
      point(me, yield ? PointKind::Yield : PointKind::Access);
      me->pending = PendingKind::None;
    } else {
      if (__builtin_expect(g_rt.steps >= g_rt.config.max_steps, 0))
        note_access_past_limit(me, address, pc, value_at(address, size));
      const bool yield = spin_yield || spin_read_streak(me, address, size, kind);
      if (__builtin_expect(g_rt.dfs_pending, 0)) {  // the exploration judges which steps commute
        me->pending = kind == EventKind::Read || kind == EventKind::AtomicLoad ? PendingKind::Read : PendingKind::Write;
        me->pending_site = site_of(pc);
        me->pending_address = address;
      } else if (__builtin_expect(g_rt.pending_events, 0) && !yield) {
        // POS decides by which stopped threads' next events race (pos_strategy.cc).
        me->pending = kind == EventKind::Read || kind == EventKind::AtomicLoad ? PendingKind::Read : PendingKind::Write;
        me->pending_address = address;
      }
      point(me, yield ? PointKind::Yield : PointKind::Access);
      me->pending = PendingKind::None;
    }
  }
  if (address != 0 && collecting())
    emit(kind, me, address, site_of(pc), static_cast<std::uint8_t>(size), 0,
         value_at(address, size));
}

void on_func_entry(std::uintptr_t call_pc, std::uintptr_t self_pc) {
  Thread* me = tls_self;
  if (me == nullptr || !g_rt.active || !collecting() || me->state == ThreadState::Exited) return;
  emit(EventKind::FuncEntry, me, site_of(self_pc), site_of(call_pc));
}

void on_func_exit() {
  Thread* me = tls_self;
  if (me == nullptr || !g_rt.active || !collecting() || me->state == ThreadState::Exited) return;
  emit(EventKind::FuncExit, me, 0, 0);
}

void on_tsan_init() {
  if (g_rt.record != nullptr) g_rt.record->instrumented = 1;
  else g_instrumented_before_start = true;
}

void on_annotation(std::uintptr_t address, bool release) {
  Thread* me = tls_self;
  if (me == nullptr || !g_rt.active || me->state == ThreadState::Exited) return;
  emit(release ? EventKind::Release : EventKind::Acquire, me, address, 0);
}

namespace {

struct StackRange {
  bool known = false;      // pthread_getattr_np answered
  bool has_stack = false;  // and pthread_attr_getstack too
  std::uintptr_t lo = 0;
  std::uintptr_t size = 0;
};

StackRange stack_of(pthread_t handle) {
  StackRange range;
  pthread_attr_t attr;
  if (pthread_getattr_np(handle, &attr) != 0) return range;
  range.known = true;
  void* stack = nullptr;
  std::size_t size = 0;
  if (pthread_attr_getstack(&attr, &stack, &size) == 0) {
    range.has_stack = true;
    range.lo = reinterpret_cast<std::uintptr_t>(stack);
    range.size = size;
  }
  pthread_attr_destroy(&attr);
  return range;
}

// The main thread's stack, found before the fork server's snapshot (remember_main_thread_stack).
StackRange g_main_stack;

void set_ranges(Thread* t, pthread_t handle, const StackRange& stack) {
  auto tp = static_cast<std::uintptr_t>(handle);
  t->tls_lo = tp - kStaticTlsBelow;
  t->tls_size = kStaticTlsBelow + kTcbAbove;
  if (!stack.known) return;
  if (stack.has_stack) {
    t->stack_lo = stack.lo;
    t->stack_size = stack.size;
  }
  if (g_instrumented_before_start && g_rt.record) g_rt.record->instrumented = 1;
}

}  // namespace

void set_thread_local_ranges(Thread* t, pthread_t handle) { set_ranges(t, handle, stack_of(handle)); }

void remember_main_thread_stack() { g_main_stack = stack_of(pthread_self()); }

void set_main_thread_local_ranges(Thread* t) { set_ranges(t, t->handle, g_main_stack); }

}  // namespace ctrlsched::shim

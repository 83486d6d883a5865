// Futex model for syscall(SYS_futex, ...), which libstdc++ uses directly for std::future,
// std::async and std::atomic::wait. WAIT/WAKE and their BITSET forms are modelled: a waiter
// keeps its bitset (FUTEX_WAIT: all bits) and a wake only wakes waiters whose bitset shares a bit
// with the wake's (FUTEX_WAKE: all bits), as the kernel does; a zero bitset is EINVAL. Other
// operations (requeue, PI, wake-op) go to the kernel, and a thread blocked there is caught by the
// uncontrolled-blocking watchdog.
#include <linux/futex.h>

#include <cerrno>

#include "collectors.h"
#include "engine.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

namespace {

bool bitset_matches(const Thread* waiter, std::uint32_t wake_bitset) {
  return (waiter->futex_bitset & wake_bitset) != 0;
}

}  // namespace

long futex(Thread* me, std::uint32_t* word, int op, std::uint32_t value, const timespec* timeout,
           std::uint32_t bitset, bool* handled) {
  int command = op & FUTEX_CMD_MASK;
  *handled = command == FUTEX_WAIT || command == FUTEX_WAIT_BITSET || command == FUTEX_WAKE ||
             command == FUTEX_WAKE_BITSET;
  if (!*handled) return 0;
  const bool with_bitset = command == FUTEX_WAIT_BITSET || command == FUTEX_WAKE_BITSET;
  if (!with_bitset) bitset = FUTEX_BITSET_MATCH_ANY;
  point(me, PointKind::Sync);
  if (bitset == 0) {
    errno = EINVAL;
    return -1;
  }
  if (command == FUTEX_WAIT || command == FUTEX_WAIT_BITSET) {
    if (*word != value) {
      errno = EAGAIN;
      return -1;
    }
    if (g_rt.config.spurious_wakeups && g_rt.recorder->spurious_wakeup(me->id)) return 0;
    Model* model = g_rt.objects.get(word, ModelKind::Futex);
    if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
    // FUTEX_WAIT takes a relative monotonic timeout, FUTEX_WAIT_BITSET an absolute one.
    std::uint64_t deadline =
        command == FUTEX_WAIT
            ? virtual_deadline_after(timeout)
            : virtual_deadline(Timeout{(op & FUTEX_CLOCK_REALTIME) ? CLOCK_REALTIME : CLOCK_MONOTONIC, timeout});
    me->futex_bitset = bitset;
    if (block(me, WaitKind::Futex, word, &model->waiters, model, timeout != nullptr, deadline)) {
      errno = ETIMEDOUT;
      return -1;
    }
    emit_sync(EventKind::Acquire, me, word, WaitKind::Futex);
    return 0;
  }
  emit_sync(EventKind::Release, me, word, WaitKind::Futex);
  Model* model = g_rt.objects.find(word, ModelKind::Futex);
  long woken = 0;
  while (model != nullptr && !model->waiters.empty() && woken < static_cast<long>(value)) {
    Thread* chosen = nullptr;
    std::size_t eligible = 0;
    for (Thread* t = model->waiters.head; t; t = t->next_waiter) eligible += bitset_matches(t, bitset);
    if (eligible == 0) break;
    if (eligible == model->waiters.size) {  // every waiter qualifies: the plain wake
      chosen = model->waiters.size > value - static_cast<std::uint32_t>(woken)
                   ? choose_waiter(model, WakeKind::FutexWake)
                   : model->waiters.head;
    } else if (eligible > value - static_cast<std::uint32_t>(woken)) {
      chosen = choose_waiter(model, WakeKind::FutexWake, bitset_matches, bitset);
    } else {
      for (Thread* t = model->waiters.head; t && !chosen; t = t->next_waiter)
        if (bitset_matches(t, bitset)) chosen = t;
    }
    model->waiters.remove(chosen);
    wake(chosen);
    ++woken;
  }
  g_rt.objects.release_if_idle(model);
  return woken;
}

}  // namespace ctrlsched::shim

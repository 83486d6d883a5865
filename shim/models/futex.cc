// Futex model for syscall(SYS_futex, ...), which libstdc++ uses directly for std::future,
// std::async and std::atomic::wait. WAIT/WAKE and their BITSET forms are modelled (the bitset is
// treated as "match any"); other operations (requeue, PI, wake-op) go to the kernel, and a
// thread blocked there is caught by the uncontrolled-blocking watchdog.
#include <linux/futex.h>

#include <cerrno>

#include "collectors.h"
#include "engine.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

long futex(Thread* me, std::uint32_t* word, int op, std::uint32_t value, const timespec* timeout,
           bool* handled) {
  int command = op & FUTEX_CMD_MASK;
  *handled = command == FUTEX_WAIT || command == FUTEX_WAIT_BITSET || command == FUTEX_WAKE ||
             command == FUTEX_WAKE_BITSET;
  if (!*handled) return 0;
  point(me, PointKind::Sync);
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
    Thread* chosen = model->waiters.size > value - static_cast<std::uint32_t>(woken)
                         ? choose_waiter(model, WakeKind::FutexWake)
                         : model->waiters.head;
    model->waiters.remove(chosen);
    wake(chosen);
    ++woken;
  }
  g_rt.objects.release_if_idle(model);
  return woken;
}

}  // namespace ctrlsched::shim

// POSIX semaphore model. The count lives in the sem_t with glibc's 64-bit layout (value in the
// low 32 bits of the first word, waiter count in the high bits, which we leave at zero), so
// sem_init/sem_open/sem_destroy stay glibc's own. A post wakes every waiter and each retries.
#include <semaphore.h>

#include <cerrno>
#include <climits>
#include <cstdint>

#include "collectors.h"
#include "engine.h"
#include "sync_point.h"
#include "models.h"
#include "report.h"

namespace ctrlsched::shim {

namespace {

std::uint64_t& word(sem_t* s) { return *reinterpret_cast<std::uint64_t*>(s); }
std::uint32_t value(sem_t* s) { return static_cast<std::uint32_t>(word(s)); }
void set_value(sem_t* s, std::uint32_t v) { word(s) = (word(s) & ~std::uint64_t{0xffffffff}) | v; }

}  // namespace

int semaphore_wait(Thread* me, sem_t* s, WaitMode mode, Timeout timeout) {
  sync_point(me, SyncOp::SemWait, s);
  if (mode != WaitMode::Try) cancellation_point(me);
  for (;;) {
    if (std::uint32_t v = value(s); v > 0) {
      set_value(s, v - 1);
      emit_sync(EventKind::Acquire, me, s, WaitKind::Semaphore);
      return 0;
    }
    if (mode == WaitMode::Try) return EAGAIN;
    if (mode == WaitMode::Timed && !valid_timeout(timeout.abstime)) return EINVAL;
    Model* model = g_rt.objects.get(s, ModelKind::Semaphore);
    if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
    bool timed_out = block(me, WaitKind::Semaphore, s, &model->waiters, model,
                           mode == WaitMode::Timed, virtual_deadline(timeout));
    cancellation_point(me);
    if (timed_out) return ETIMEDOUT;
  }
}

int semaphore_post(Thread* me, sem_t* s) {
  sync_point(me, SyncOp::Post, s);
  std::uint32_t v = value(s);
  if (v >= static_cast<std::uint32_t>(SEM_VALUE_MAX)) return EOVERFLOW;
  set_value(s, v + 1);
  emit_sync(EventKind::Release, me, s, WaitKind::Semaphore);
  if (Model* model = g_rt.objects.find(s, ModelKind::Semaphore)) wake_all(model);
  return 0;
}

int semaphore_value(Thread* me, sem_t* s, int* out) {
  point(me, PointKind::Sync);
  *out = static_cast<int>(value(s));
  return 0;
}

}  // namespace ctrlsched::shim

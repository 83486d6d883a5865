// Barrier model: count, arrivals and round number in a persistent object-table entry (from init
// to destroy). The last thread to arrive releases the round and gets
// PTHREAD_BARRIER_SERIAL_THREAD, as in glibc.
#include <cerrno>
#include <cstring>

#include "collectors.h"
#include "engine.h"
#include "models.h"
#include "report.h"
#include "stack.h"

namespace ctrlsched::shim {

namespace {

Model* model_of(pthread_barrier_t* b) {
  if (Model* model = g_rt.objects.find(b, ModelKind::Barrier)) return model;
  // Initialized before the shim took control: glibc keeps the count in the third word.
  unsigned words[4];
  std::memcpy(words, b, sizeof words);
  if (words[2] == 0) return nullptr;
  barrier_init(b, words[2]);
  return g_rt.objects.find(b, ModelKind::Barrier);
}

}  // namespace

int barrier_init(pthread_barrier_t* b, unsigned count) {
  Model* model = g_rt.objects.get(b, ModelKind::Barrier);
  if (model == nullptr) fail_shim_error("ctrlsched shim: too many busy synchronization objects");
  model->persistent = true;
  model->barrier_count = count;
  model->barrier_arrived = 0;
  return 0;
}

int barrier_wait(Thread* me, pthread_barrier_t* b) {
  point(me, PointKind::Sync);
  Model* model = model_of(b);
  if (model == nullptr) return EINVAL;
  // Trace events name the round (mod 256) in `size`, so rounds do not order each other.
  std::uint64_t round = model->barrier_round;
  auto round_tag = static_cast<std::uint8_t>(round);
  if (collecting())
    emit(EventKind::Release, me, reinterpret_cast<std::uint64_t>(b), site_of(me->sync_pc), round_tag,
         static_cast<std::uint16_t>(WaitKind::Barrier));
  int result = 0;
  if (++model->barrier_arrived == model->barrier_count) {
    model->barrier_arrived = 0;
    ++model->barrier_round;
    while (Thread* t = model->waiters.pop_front()) wake(t);
    result = PTHREAD_BARRIER_SERIAL_THREAD;
  } else {
    while (model->barrier_round == round)
      block(me, WaitKind::Barrier, b, &model->waiters, model, false);
  }
  if (collecting())
    emit(EventKind::Acquire, me, reinterpret_cast<std::uint64_t>(b), site_of(me->sync_pc), round_tag,
         static_cast<std::uint16_t>(WaitKind::Barrier));
  return result;
}

int barrier_destroy(pthread_barrier_t* b) {
  Model* model = g_rt.objects.find(b, ModelKind::Barrier);
  if (model == nullptr) return 0;
  if (!model->waiters.empty() || model->barrier_arrived != 0) return EBUSY;
  g_rt.objects.erase(model);
  return 0;
}

}  // namespace ctrlsched::shim

// Barrier model: count, arrivals and round number in a persistent object-table entry (from init
// to destroy). The last thread to arrive releases the round and gets
// PTHREAD_BARRIER_SERIAL_THREAD, as in glibc.
#include <cerrno>
#include <cstring>

#include "engine.h"
#include "models.h"
#include "report.h"

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
  if (++model->barrier_arrived == model->barrier_count) {
    model->barrier_arrived = 0;
    ++model->barrier_round;
    while (Thread* t = model->waiters.pop_front()) wake(t);
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  std::uint64_t round = model->barrier_round;
  while (model->barrier_round == round) block(me, WaitKind::Barrier, b, &model->waiters, model, false);
  return 0;
}

int barrier_destroy(pthread_barrier_t* b) {
  Model* model = g_rt.objects.find(b, ModelKind::Barrier);
  if (model == nullptr) return 0;
  if (!model->waiters.empty() || model->barrier_arrived != 0) return EBUSY;
  g_rt.objects.erase(model);
  return 0;
}

}  // namespace ctrlsched::shim

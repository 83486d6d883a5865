// The free functions of ctrlsched/inprocess/detail.hpp: thin forwarding to the engine of the
// calling OS thread.
#include "engine.h"

namespace ctrlsched::detail {

bool engine_on() noexcept { return tls_engine != nullptr; }
bool tearing_down() noexcept { return tls_engine != nullptr && tls_engine->tearing_down(); }

bool first_use(ModelBase& m, WaitKind) noexcept { return tls_engine->first_use(m); }

bool sync_point(bool releasing) {
  Engine* e = tls_engine;
  if (!e->enter(releasing)) return false;
  e->point(PointKind::Sync, releasing);
  return true;
}

bool yield_point() {
  Engine* e = tls_engine;
  if (!e->enter(false)) return false;
  e->point(PointKind::Yield, false);
  return true;
}

bool access_point(const void* address, unsigned, bool, bool releasing) {
  Engine* e = tls_engine;
  if (!e->enter(releasing)) return false;
  e->access(reinterpret_cast<std::uintptr_t>(address), releasing);
  return true;
}

ThreadId self() noexcept { return tls_engine->current()->id; }

bool block(ModelBase& m, WaitKind kind, bool timed, std::uint64_t deadline) {
  return tls_engine->block(m, kind, timed, deadline);
}
bool wake_one(ModelBase& m, WakeKind kind) { return tls_engine->wake_one(m, kind); }
void wake_all(ModelBase& m) { tls_engine->wake_all(m); }
bool spurious_wakeup() { return tls_engine->spurious_wakeup(); }
void fail(FailureKind kind, std::string message) { tls_engine->fail(kind, std::move(message)); }

std::uint64_t virtual_now() noexcept { return tls_engine ? tls_engine->now() : 0; }
void virtual_advance(std::uint64_t ns) noexcept {
  if (tls_engine) tls_engine->advance(ns);
}

FiberThread* spawn(std::function<void()> fn) {
  Engine* e = tls_engine;
  if (!e->enter(false)) throw FiberUnwind{};
  return e->spawn(std::move(fn));
}

void join(FiberThread* t) {
  Engine* e = tls_engine;
  if (!e->enter(false)) return;
  e->point(PointKind::Sync, false);
  e->join(t);
}

void detach(FiberThread* t) {
  Engine* e = tls_engine;
  if (!e->enter(true)) return;
  e->point(PointKind::Sync, true);
  e->detach(t);
}

ThreadId id_of(const FiberThread* t) noexcept { return t->id; }

}  // namespace ctrlsched::detail

// The models of ctrlsched's primitives inside explore, each following the shim's pthread model
// (shim/models/*.cc): one Sync point before the operation takes effect, blocking through the
// engine, an unlock/post wakes every waiter and each retries.
#include <string>

#include "ctrlsched/inprocess/sync.hpp"
#include "ctrlsched/inprocess/thread.hpp"
#include "engine.h"

namespace ctrlsched {

using detail::engine_on;

namespace {
[[noreturn]] void misuse(const std::string& what) { detail::fail(FailureKind::Misuse, what); }
// For operations that run in destructors: the run stops at the next point instead.
bool misuse_noted(const std::string& what) {
  note_failure(FailureKind::Misuse, what);
  return true;
}
std::string me() { return "T" + std::to_string(detail::self()); }
}  // namespace

// ---- mutex (shim/models/mutex.cc, normal type) ----

void mutex::reset_if_new() {
  if (detail::first_use(model_, detail::WaitKind::Mutex)) locked_ = false;
}

void mutex::take() {
  locked_ = true;
  model_.holder = detail::self();
}

void mutex::release() {
  locked_ = false;
  model_.holder = kNoThread;
  detail::wake_all(model_);
}

void mutex::acquire_blocking() {
  while (locked_) detail::block(model_, detail::WaitKind::Mutex);
  take();
}

void mutex::lock() {
  if (!engine_on()) return real_.lock();
  if (!detail::sync_point(false)) return;
  reset_if_new();
  // Relocking a mutex one holds deadlocks, as with a normal pthread mutex.
  if (!locked_) return take();
  acquire_blocking();
}

bool mutex::try_lock() {
  if (!engine_on()) return real_.try_lock();
  if (!detail::sync_point(false)) return true;
  reset_if_new();
  if (locked_) return false;
  take();
  return true;
}

void mutex::unlock() {
  if (!engine_on()) return real_.unlock();
  if (!detail::sync_point(true)) return;
  reset_if_new();
  if (!locked_ || model_.holder != detail::self()) {
    misuse_noted(me() + " unlocks a mutex it does not hold");
    return;
  }
  release();
}

// ---- recursive_mutex ----

void recursive_mutex::lock() {
  if (!engine_on()) return real_.lock();
  if (!detail::sync_point(false)) return;
  if (detail::first_use(model_, detail::WaitKind::Mutex)) count_ = 0;
  if (count_ > 0 && model_.holder == detail::self()) {
    ++count_;
    return;
  }
  while (count_ > 0) detail::block(model_, detail::WaitKind::Mutex);
  count_ = 1;
  model_.holder = detail::self();
}

bool recursive_mutex::try_lock() {
  if (!engine_on()) return real_.try_lock();
  if (!detail::sync_point(false)) return true;
  if (detail::first_use(model_, detail::WaitKind::Mutex)) count_ = 0;
  if (count_ > 0 && model_.holder != detail::self()) return false;
  ++count_;
  model_.holder = detail::self();
  return true;
}

void recursive_mutex::unlock() {
  if (!engine_on()) return real_.unlock();
  if (!detail::sync_point(true)) return;
  if (detail::first_use(model_, detail::WaitKind::Mutex)) count_ = 0;
  if (count_ == 0 || model_.holder != detail::self()) {
    misuse_noted(me() + " unlocks a recursive_mutex it does not hold");
    return;
  }
  if (--count_ > 0) return;
  model_.holder = kNoThread;
  detail::wake_all(model_);
}

// ---- shared_mutex (shim/models/rwlock.cc) ----

bool shared_mutex::acquire(bool write, bool try_only) {
  if (!detail::sync_point(false)) return true;
  if (detail::first_use(model_, detail::WaitKind::SharedWrite)) {
    writer_ = false;
    readers_ = 0;
  }
  for (;;) {
    if (!writer_ && (!write || readers_ == 0)) {
      if (write) {
        writer_ = true;
        model_.holder = detail::self();
      } else {
        ++readers_;
      }
      return true;
    }
    if (writer_ && model_.holder == detail::self()) misuse(me() + " locks a shared_mutex it holds exclusively");
    if (try_only) return false;
    detail::block(model_, write ? detail::WaitKind::SharedWrite : detail::WaitKind::SharedRead);
  }
}

void shared_mutex::release(bool write) {
  if (!detail::sync_point(true)) return;
  if (detail::first_use(model_, detail::WaitKind::SharedWrite)) {
    writer_ = false;
    readers_ = 0;
  }
  if (write) {
    if (!writer_ || model_.holder != detail::self()) {
      misuse_noted(me() + " unlocks a shared_mutex it does not hold");
      return;
    }
    writer_ = false;
    model_.holder = kNoThread;
  } else {
    if (readers_ == 0) {
      misuse_noted(me() + " unlock_shared()s a shared_mutex nobody reads");
      return;
    }
    --readers_;
  }
  detail::wake_all(model_);
}

void shared_mutex::lock() {
  if (!engine_on()) return real_.lock();
  acquire(true, false);
}
bool shared_mutex::try_lock() {
  if (!engine_on()) return real_.try_lock();
  return acquire(true, true);
}
void shared_mutex::unlock() {
  if (!engine_on()) return real_.unlock();
  release(true);
}
void shared_mutex::lock_shared() {
  if (!engine_on()) return real_.lock_shared();
  acquire(false, false);
}
bool shared_mutex::try_lock_shared() {
  if (!engine_on()) return real_.try_lock_shared();
  return acquire(false, true);
}
void shared_mutex::unlock_shared() {
  if (!engine_on()) return real_.unlock_shared();
  release(false);
}

// ---- condition_variable (shim/models/cond.cc) ----

bool condition_variable::wait_impl(std::unique_lock<mutex>& lock, bool timed, std::uint64_t deadline) {
  if (!detail::sync_point(false)) return false;
  detail::first_use(model_, detail::WaitKind::Cond);
  mutex& m = *lock.mutex();
  m.reset_if_new();
  if (!m.locked_ || m.model_.holder != detail::self())
    misuse(me() + " waits on a condition_variable without holding its mutex");
  m.release();
  bool timed_out = false;
  if (!detail::spurious_wakeup()) timed_out = detail::block(model_, detail::WaitKind::Cond, timed, deadline);
  m.acquire_blocking();
  return timed_out;
}

void condition_variable::wait(std::unique_lock<mutex>& lock) {
  if (!engine_on()) return real_.wait(lock);
  wait_impl(lock, false, 0);
}

std::cv_status condition_variable::timed_wait(std::unique_lock<mutex>& lock, std::uint64_t relative_ns) {
  const std::uint64_t deadline = detail::virtual_now() + relative_ns;
  return wait_impl(lock, true, deadline) ? std::cv_status::timeout : std::cv_status::no_timeout;
}

void condition_variable::notify_one() {
  if (!engine_on()) return real_.notify_one();
  if (!detail::sync_point(true)) return;
  detail::first_use(model_, detail::WaitKind::Cond);
  detail::wake_one(model_, WakeKind::CondSignal);
}

void condition_variable::notify_all() {
  if (!engine_on()) return real_.notify_all();
  if (!detail::sync_point(true)) return;
  detail::first_use(model_, detail::WaitKind::Cond);
  detail::wake_all(model_);
}

// ---- semaphore (shim/models/semaphore.cc) ----

namespace detail {

void semaphore_model::reset_if_new() {
  if (first_use(model_, WaitKind::Semaphore)) count_ = initial_;
}

void semaphore_model::acquire() {
  if (!sync_point(false)) return;
  reset_if_new();
  while (count_ == 0) block(model_, WaitKind::Semaphore);
  --count_;
}

bool semaphore_model::try_acquire() {
  if (!sync_point(false)) return true;
  reset_if_new();
  if (count_ == 0) return false;
  --count_;
  return true;
}

void semaphore_model::release(std::ptrdiff_t n) {
  if (!sync_point(true)) return;
  reset_if_new();
  count_ += n;
  wake_all(model_);
}

// ---- barrier (shim/models/barrier.cc) ----

bool barrier_model::arrive_and_wait() {
  if (!sync_point(false)) return false;
  if (first_use(model_, WaitKind::Barrier)) {
    arrived_ = 0;
    phase_ = 0;
  }
  const std::uint64_t phase = phase_;
  if (++arrived_ == expected_) {
    arrived_ = 0;
    ++phase_;
    wake_all(model_);
    return true;
  }
  while (phase_ == phase) block(model_, WaitKind::Barrier);
  return false;
}

}  // namespace detail

// ---- thread ----

thread& thread::operator=(thread&& other) noexcept {
  if (joinable()) std::terminate();  // as std::thread
  fiber_ = std::exchange(other.fiber_, nullptr);
  real_ = std::move(other.real_);
  return *this;
}

thread::~thread() {
  if (fiber_ != nullptr && engine_on() && !detail::tearing_down())
    note_failure(FailureKind::Misuse, me() + " destroyed a joinable ctrlsched::thread (T" +
                                          std::to_string(detail::id_of(fiber_)) +
                                          ") without join or detach");
}

void thread::join() {
  if (fiber_ == nullptr) return real_.join();
  detail::FiberThread* target = std::exchange(fiber_, nullptr);
  detail::join(target);
}

void thread::detach() {
  if (fiber_ == nullptr) return real_.detach();
  detail::detach(std::exchange(fiber_, nullptr));
}

std::uint32_t this_thread::index() noexcept { return engine_on() ? detail::self() : 0; }

void this_thread::yield() {
  if (!engine_on()) return std::this_thread::yield();
  detail::yield_point();
}

void this_thread::sleep_for_ns(std::uint64_t ns) {
  if (!detail::yield_point()) return;
  detail::virtual_advance(ns);
}

virtual_clock::time_point virtual_clock::now() noexcept {
  if (engine_on()) return time_point(duration(static_cast<rep>(detail::virtual_now())));
  return time_point(std::chrono::duration_cast<duration>(std::chrono::steady_clock::now().time_since_epoch()));
}

}  // namespace ctrlsched

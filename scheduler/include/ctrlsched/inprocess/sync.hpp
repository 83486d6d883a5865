// Synchronization primitives with the std interfaces. Inside ctrlsched::explore every operation
// is a scheduling point (before it takes effect, like the shim's pthread models); outside explore
// each one is the std primitive it wraps, so a test can switch with a using-declaration.
#pragma once

#include <barrier>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <semaphore>
#include <shared_mutex>

#include "ctrlsched/inprocess/detail.hpp"

namespace ctrlsched {

class mutex {
 public:
  mutex() = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  void lock();
  bool try_lock();
  void unlock();

 private:
  friend class condition_variable;
  void reset_if_new();
  void take();
  void release();
  void acquire_blocking();
  std::mutex real_;
  detail::ModelBase model_;
  bool locked_ = false;
};

class recursive_mutex {
 public:
  recursive_mutex() = default;
  recursive_mutex(const recursive_mutex&) = delete;
  recursive_mutex& operator=(const recursive_mutex&) = delete;
  void lock();
  bool try_lock();
  void unlock();

 private:
  std::recursive_mutex real_;
  detail::ModelBase model_;
  unsigned count_ = 0;
};

// Readers may join readers while a writer waits (glibc's default rwlock, as the shim models it).
class shared_mutex {
 public:
  shared_mutex() = default;
  shared_mutex(const shared_mutex&) = delete;
  shared_mutex& operator=(const shared_mutex&) = delete;
  void lock();
  bool try_lock();
  void unlock();
  void lock_shared();
  bool try_lock_shared();
  void unlock_shared();

 private:
  bool acquire(bool write, bool try_only);
  void release(bool write);
  std::shared_mutex real_;
  detail::ModelBase model_;
  bool writer_ = false;
  unsigned readers_ = 0;
};

// Waits take std::unique_lock<ctrlsched::mutex>. Timed waits use virtual time: a timeout fires
// when the strategy picks the waiter, and the virtual clock (ctrlsched::virtual_clock) moves to
// its deadline; the wall clock is never consulted.
class condition_variable {
 public:
  condition_variable() = default;
  condition_variable(const condition_variable&) = delete;
  condition_variable& operator=(const condition_variable&) = delete;
  void notify_one();
  void notify_all();
  void wait(std::unique_lock<mutex>& lock);
  template <class Predicate>
  void wait(std::unique_lock<mutex>& lock, Predicate pred) {
    while (!pred()) wait(lock);
  }
  template <class Rep, class Period>
  std::cv_status wait_for(std::unique_lock<mutex>& lock, const std::chrono::duration<Rep, Period>& d) {
    if (!detail::engine_on()) return real_.wait_for(lock, d);
    return timed_wait(lock, static_cast<std::uint64_t>(
                                std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()));
  }
  template <class Rep, class Period, class Predicate>
  bool wait_for(std::unique_lock<mutex>& lock, const std::chrono::duration<Rep, Period>& d, Predicate pred) {
    if (!detail::engine_on()) return real_.wait_for(lock, d, std::move(pred));
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
    const std::uint64_t deadline = detail::virtual_now() + static_cast<std::uint64_t>(ns > 0 ? ns : 0);
    while (!pred()) {
      const std::uint64_t now = detail::virtual_now();
      if (timed_wait(lock, deadline > now ? deadline - now : 0) == std::cv_status::timeout) return pred();
    }
    return true;
  }
  template <class Clock, class Duration>
  std::cv_status wait_until(std::unique_lock<mutex>& lock, const std::chrono::time_point<Clock, Duration>& t) {
    if (!detail::engine_on()) return real_.wait_until(lock, t);
    const auto left = t - Clock::now();
    return wait_for(lock, left.count() > 0 ? left : decltype(left)::zero());
  }
  template <class Clock, class Duration, class Predicate>
  bool wait_until(std::unique_lock<mutex>& lock, const std::chrono::time_point<Clock, Duration>& t, Predicate pred) {
    if (!detail::engine_on()) return real_.wait_until(lock, t, std::move(pred));
    const auto left = t - Clock::now();
    return wait_for(lock, left.count() > 0 ? left : decltype(left)::zero(), std::move(pred));
  }

 private:
  std::cv_status timed_wait(std::unique_lock<mutex>& lock, std::uint64_t relative_ns);
  bool wait_impl(std::unique_lock<mutex>& lock, bool timed, std::uint64_t deadline);
  std::condition_variable_any real_;
  detail::ModelBase model_;
};

namespace detail {
class semaphore_model {
 public:
  explicit semaphore_model(std::ptrdiff_t initial) : initial_(initial) {}
  void acquire();
  bool try_acquire();
  void release(std::ptrdiff_t n);

 private:
  void reset_if_new();
  detail::ModelBase model_;
  std::ptrdiff_t initial_;
  std::ptrdiff_t count_ = 0;
};
}  // namespace detail

template <std::ptrdiff_t LeastMaxValue = 0x7fffffff>
class counting_semaphore {
 public:
  explicit counting_semaphore(std::ptrdiff_t desired) : real_(desired), model_(desired) {}
  counting_semaphore(const counting_semaphore&) = delete;
  counting_semaphore& operator=(const counting_semaphore&) = delete;
  static constexpr std::ptrdiff_t max() noexcept { return LeastMaxValue; }
  void release(std::ptrdiff_t update = 1) {
    if (detail::engine_on()) model_.release(update);
    else real_.release(update);
  }
  void acquire() {
    if (detail::engine_on()) model_.acquire();
    else real_.acquire();
  }
  bool try_acquire() noexcept {
    if (detail::engine_on()) return model_.try_acquire();
    return real_.try_acquire();
  }

 private:
  std::counting_semaphore<LeastMaxValue> real_;
  detail::semaphore_model model_;
};
using binary_semaphore = counting_semaphore<1>;

namespace detail {
struct no_completion {
  void operator()() noexcept {}
};
class barrier_model {
 public:
  explicit barrier_model(std::ptrdiff_t expected) : expected_(expected) {}
  // Returns true for the thread whose arrival completed the phase (it runs the completion).
  bool arrive_and_wait();

 private:
  detail::ModelBase model_;
  std::ptrdiff_t expected_;
  std::ptrdiff_t arrived_ = 0;
  std::uint64_t phase_ = 0;
};
}  // namespace detail

// arrive_and_wait only (the other std::barrier members are not modelled).
template <class CompletionFunction = detail::no_completion>
class barrier {
 public:
  explicit barrier(std::ptrdiff_t expected, CompletionFunction f = CompletionFunction())
      : real_(expected, f), model_(expected), completion_(std::move(f)) {}
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;
  void arrive_and_wait() {
    if (!detail::engine_on()) return real_.arrive_and_wait();
    if (model_.arrive_and_wait()) completion_();
  }

 private:
  std::barrier<CompletionFunction> real_;
  detail::barrier_model model_;
  CompletionFunction completion_;
};

}  // namespace ctrlsched

// ctrlsched::thread / jthread and this_thread: inside explore a thread is a fiber of the engine
// (creation, join and exit are scheduling points as in the shim); outside explore it is a
// std::thread.
#pragma once

#include <chrono>
#include <functional>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctrlsched/inprocess/detail.hpp"

namespace ctrlsched {

class thread {
 public:
  thread() noexcept = default;
  template <class F, class... Args>
    requires(!std::is_same_v<std::remove_cvref_t<F>, thread>)
  explicit thread(F&& f, Args&&... args) {
    auto call = [fn = std::decay_t<F>(std::forward<F>(f)),
                 tuple = std::make_tuple(std::decay_t<Args>(std::forward<Args>(args))...)]() mutable {
      std::apply([&](auto&... a) { std::invoke(std::move(fn), std::move(a)...); }, tuple);
    };
    if (detail::engine_on()) fiber_ = detail::spawn(std::move(call));
    else real_ = std::thread(std::move(call));
  }
  thread(thread&& other) noexcept : fiber_(std::exchange(other.fiber_, nullptr)), real_(std::move(other.real_)) {}
  thread& operator=(thread&& other) noexcept;
  thread(const thread&) = delete;
  thread& operator=(const thread&) = delete;
  // Inside explore a joinable thread's destruction fails the run (kind Misuse) instead of
  // std::terminate; outside explore it terminates, as std::thread does.
  ~thread();
  bool joinable() const noexcept { return fiber_ != nullptr || real_.joinable(); }
  void join();
  void detach();
  // The engine's thread index (T0 = the explore body) inside explore; 0 outside.
  std::uint32_t index() const noexcept { return fiber_ ? detail::id_of(fiber_) : 0; }

 private:
  detail::FiberThread* fiber_ = nullptr;
  std::thread real_;
};

// Joins on destruction (no stop tokens).
class jthread {
 public:
  jthread() noexcept = default;
  template <class F, class... Args>
    requires(!std::is_same_v<std::remove_cvref_t<F>, jthread>)
  explicit jthread(F&& f, Args&&... args) : thread_(std::forward<F>(f), std::forward<Args>(args)...) {}
  jthread(jthread&&) noexcept = default;
  jthread& operator=(jthread&& other) noexcept {
    if (thread_.joinable()) thread_.join();
    thread_ = std::move(other.thread_);
    return *this;
  }
  ~jthread() {
    if (thread_.joinable()) thread_.join();
  }
  bool joinable() const noexcept { return thread_.joinable(); }
  void join() { thread_.join(); }
  void detach() { thread_.detach(); }

 private:
  thread thread_;
};

// Virtual clock of the current run (nanoseconds since the run started); outside explore, the
// steady clock.
struct virtual_clock {
  using rep = std::int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<virtual_clock>;
  static constexpr bool is_steady = true;
  static time_point now() noexcept;
};

namespace this_thread {
// A Yield point (the strategy may switch; PCT treats it as the shim treats sched_yield).
void yield();
// Yield points that advance the virtual clock; they never wait on the wall clock.
void sleep_for_ns(std::uint64_t ns);
template <class Rep, class Period>
void sleep_for(const std::chrono::duration<Rep, Period>& d) {
  if (!detail::engine_on()) return std::this_thread::sleep_for(d);
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  sleep_for_ns(static_cast<std::uint64_t>(ns > 0 ? ns : 0));
}
template <class Clock, class Duration>
void sleep_until(const std::chrono::time_point<Clock, Duration>& t) {
  if (!detail::engine_on()) return std::this_thread::sleep_until(t);
  sleep_for(t - Clock::now());
}
// The engine's index of the running thread (0 = the body); 0 outside explore.
std::uint32_t index() noexcept;
}  // namespace this_thread

inline void yield() { this_thread::yield(); }

}  // namespace ctrlsched

// ctrlsched::atomic<T> (every operation is a scheduling point of kind Access inside explore;
// sequentially consistent whatever order is passed) and ctrlsched::shared<T> (a plain shared
// variable whose every read and write is a scheduling point, so races on it can be explored
// without compiler instrumentation). Outside explore both are just the operation.
#pragma once

#include <atomic>
#include <concepts>
#include <type_traits>

#include "ctrlsched/inprocess/detail.hpp"

namespace ctrlsched {

namespace detail {
// Loads can spin forever: in teardown they unwind. Stores and read-modify-writes often sit in
// destructors (reference counts): they never throw.
inline void atomic_point(const void* address, unsigned size, bool write) {
  if (engine_on()) access_point(address, size, write, /*releasing=*/write);
}
}  // namespace detail

template <class T>
class atomic {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  constexpr atomic() noexcept(std::is_nothrow_default_constructible_v<T>) = default;
  constexpr atomic(T desired) noexcept : value_(desired) {}
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;

  T load(std::memory_order = std::memory_order_seq_cst) const {
    detail::atomic_point(this, sizeof(T), false);
    return value_.load();
  }
  void store(T desired, std::memory_order = std::memory_order_seq_cst) {
    detail::atomic_point(this, sizeof(T), true);
    value_.store(desired);
  }
  operator T() const { return load(); }
  T operator=(T desired) {
    store(desired);
    return desired;
  }
  T exchange(T desired, std::memory_order = std::memory_order_seq_cst) {
    detail::atomic_point(this, sizeof(T), true);
    return value_.exchange(desired);
  }
  // Never fails spuriously (deterministic; a correct program accepts it).
  bool compare_exchange_weak(T& expected, T desired, std::memory_order = std::memory_order_seq_cst,
                             std::memory_order = std::memory_order_seq_cst) {
    return compare_exchange_strong(expected, desired);
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order = std::memory_order_seq_cst,
                               std::memory_order = std::memory_order_seq_cst) {
    detail::atomic_point(this, sizeof(T), true);
    return value_.compare_exchange_strong(expected, desired);
  }
  T fetch_add(T v, std::memory_order = std::memory_order_seq_cst) requires std::integral<T> {
    detail::atomic_point(this, sizeof(T), true);
    return value_.fetch_add(v);
  }
  T fetch_sub(T v, std::memory_order = std::memory_order_seq_cst) requires std::integral<T> {
    detail::atomic_point(this, sizeof(T), true);
    return value_.fetch_sub(v);
  }
  T fetch_and(T v, std::memory_order = std::memory_order_seq_cst) requires std::integral<T> {
    detail::atomic_point(this, sizeof(T), true);
    return value_.fetch_and(v);
  }
  T fetch_or(T v, std::memory_order = std::memory_order_seq_cst) requires std::integral<T> {
    detail::atomic_point(this, sizeof(T), true);
    return value_.fetch_or(v);
  }
  T fetch_xor(T v, std::memory_order = std::memory_order_seq_cst) requires std::integral<T> {
    detail::atomic_point(this, sizeof(T), true);
    return value_.fetch_xor(v);
  }
  T operator++() requires std::integral<T> { return fetch_add(1) + 1; }
  T operator++(int) requires std::integral<T> { return fetch_add(1); }
  T operator--() requires std::integral<T> { return fetch_sub(1) - 1; }
  T operator--(int) requires std::integral<T> { return fetch_sub(1); }
  T operator+=(T v) requires std::integral<T> { return fetch_add(v) + v; }
  T operator-=(T v) requires std::integral<T> { return fetch_sub(v) - v; }

 private:
  std::atomic<T> value_{};
};

// A plain (non-atomic) shared variable: reads and writes are separate scheduling points, so
// `x += 1` is a read, a point, and a write, and lost updates show up as they would on hardware.
template <class T>
class shared {
 public:
  shared() = default;
  shared(T value) : value_(std::move(value)) {}
  shared(const shared&) = delete;
  shared& operator=(const shared&) = delete;

  T load() const {
    if (detail::engine_on()) detail::access_point(&value_, sizeof(T), false, false);
    return value_;
  }
  void store(T value) {
    if (detail::engine_on()) detail::access_point(&value_, sizeof(T), true, true);
    value_ = std::move(value);
  }
  operator T() const { return load(); }
  shared& operator=(T value) {
    store(std::move(value));
    return *this;
  }
  shared& operator+=(const T& v) { store(load() + v); return *this; }
  shared& operator-=(const T& v) { store(load() - v); return *this; }
  T operator++() { T v = load() + 1; store(v); return v; }
  T operator++(int) { T v = load(); store(v + 1); return v; }
  T operator--() { T v = load() - 1; store(v); return v; }
  T operator--(int) { T v = load(); store(v - 1); return v; }
  // Unchecked access (no scheduling point), e.g. for a final assertion after joining.
  T& unsafe_ref() { return value_; }

 private:
  T value_{};
};

}  // namespace ctrlsched

// A minimal expected-like result: a value or a one-line error message.
//
// Why not std::expected: it is C++23 and the project builds as C++20 with gcc 12. The interface
// mirrors std::expected (has_value, value, error, operator*, operator->) so it can be replaced by
// the standard type later without touching callers. Errors are plain strings because every caller
// only prints them ("trace.cst: bad magic").
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace ctrlsched::localize {

// Wraps an error message so `return Unexpected{"..."}` reads unambiguously.
struct Unexpected {
  std::string message;
};

template <class T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit, like std::expected
  Expected(Unexpected error) : error_(std::move(error.message)) {}  // NOLINT

  bool has_value() const { return value_.has_value(); }
  explicit operator bool() const { return has_value(); }

  T& value() & { return checked(); }
  const T& value() const& { return const_cast<Expected*>(this)->checked(); }
  T&& value() && { return std::move(checked()); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

  // Empty when has_value().
  const std::string& error() const { return error_; }

 private:
  T& checked() {
    if (!value_) throw std::logic_error("Expected::value() on an error: " + error_);
    return *value_;
  }
  std::optional<T> value_;
  std::string error_;
};

// Success or a one-line error, for operations without a result (writing a file).
template <>
class Expected<void> {
 public:
  Expected() = default;
  Expected(Unexpected error) : ok_(false), error_(std::move(error.message)) {}  // NOLINT

  bool has_value() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const std::string& error() const { return error_; }

 private:
  bool ok_ = true;
  std::string error_;
};

}  // namespace ctrlsched::localize

// The progress line on stderr while seeds run: only on a terminal and without --quiet, redrawn
// in place with '\r' at most 10 times a second, erased before the summary is printed.
#pragma once

#include <chrono>
#include <cstdint>

namespace ctrlsched::driver {

class Progress {
 public:
  // Enabled iff `wanted` and stderr is a terminal.
  Progress(bool wanted, std::uint64_t total);
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void set(std::uint64_t done, std::uint64_t failures) {
    done_ = done;
    failures_ = failures;
  }
  // Redraws if at least 100 ms passed since the last redraw.
  void tick();
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::uint64_t failures_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace ctrlsched::driver

// Progress line rendering (see progress.h).
#include "report/progress.h"

#include <unistd.h>

#include <cstdio>

namespace ctrlsched::driver {

Progress::Progress(bool wanted, std::uint64_t total) : enabled_(wanted && ::isatty(STDERR_FILENO)), total_(total) {}

void Progress::tick() {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  std::fprintf(stderr, "\r\033[Kctrlsched: %llu/%llu seeds · %llu failing", static_cast<unsigned long long>(done_),
               static_cast<unsigned long long>(total_), static_cast<unsigned long long>(failures_));
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace ctrlsched::driver

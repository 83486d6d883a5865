// Captured stdout+stderr of a test run: one memfd per worker, reused from run to run, so the
// test's output never mixes into ours and the tail of a failing run can be shown under its group.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ctrlsched::driver {

inline constexpr std::size_t kTailLines = 20;
inline constexpr std::size_t kTailBytes = 2048;

// The last `max_lines` lines / `max_bytes` bytes of `text`, without a trailing newline; a line
// cut by the byte limit starts with "…". Control characters other than tab become '?' so a
// test's escape sequences cannot garble the terminal.
std::string output_tail(std::string_view text, std::size_t max_lines = kTailLines,
                        std::size_t max_bytes = kTailBytes);

class CaptureFile {
 public:
  CaptureFile();  // throws DriverError(Internal)
  ~CaptureFile();
  CaptureFile(const CaptureFile&) = delete;
  CaptureFile& operator=(const CaptureFile&) = delete;
  CaptureFile(CaptureFile&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

  int fd() const { return fd_; }
  // Empties the file before the next run (the child shares the file offset with us).
  void reset();
  // output_tail() of everything the run wrote.
  std::string tail() const;

 private:
  int fd_ = -1;
};

}  // namespace ctrlsched::driver

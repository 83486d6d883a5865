// Output capture memfd and tail extraction (see capture_file.h).
#include "runs/capture_file.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "exit_codes.h"

namespace ctrlsched::driver {

std::string output_tail(std::string_view text, std::size_t max_lines, std::size_t max_bytes) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  bool cut = false;
  if (text.size() > max_bytes) {
    text = text.substr(text.size() - max_bytes);
    cut = true;
  }
  std::size_t lines = 1;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] != '\n') continue;
    if (++lines > max_lines) {
      text = text.substr(i + 1);
      cut = false;  // starts at a line boundary now
      break;
    }
  }
  std::string out = cut ? "…" : "";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f ? '?' : c;
  }
  return out;
}

CaptureFile::CaptureFile() {
  fd_ = ::memfd_create("ctrlsched-output", MFD_CLOEXEC);
  if (fd_ < 0) {
    throw DriverError(ExitCode::Internal,
                      std::string("memfd_create for the output capture failed: ") + std::strerror(errno));
  }
}

CaptureFile::~CaptureFile() {
  if (fd_ >= 0) ::close(fd_);
}

void CaptureFile::reset() {
  if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) < 0) {
    throw DriverError(ExitCode::Internal,
                      std::string("resetting the output capture failed: ") + std::strerror(errno));
  }
}

std::string CaptureFile::tail() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || st.st_size <= 0) return {};
  // Read a little more than the byte limit so the first kept line can be whole.
  const off_t want = std::min<off_t>(st.st_size, static_cast<off_t>(kTailBytes + 1));
  std::string bytes(static_cast<std::size_t>(want), '\0');
  const ssize_t got = ::pread(fd_, bytes.data(), bytes.size(), st.st_size - want);
  if (got <= 0) return {};
  bytes.resize(static_cast<std::size_t>(got));
  return output_tail(bytes);
}

}  // namespace ctrlsched::driver

// Whole-or-nothing file writes (see atomic_file.h).
#include "runs/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ctrlsched::driver {
namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

// Writes all of `content` to a new file and syncs it, so the rename never publishes a file whose
// data is still only in the page cache of a machine about to lose power.
std::string write_new_file(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return "cannot write " + path.string() + ": " + errno_text();
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = "cannot write " + path.string() + ": " + errno_text();
      ::close(fd);
      return reason;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const std::string reason = "cannot write " + path.string() + ": " + errno_text();
    ::close(fd);
    return reason;
  }
  if (::close(fd) != 0) return "cannot write " + path.string() + ": " + errno_text();
  return {};
}

}  // namespace

fs::path temporary_path_for(const fs::path& path) {
  return fs::path(path.string() + ".tmp." + std::to_string(::getpid()));
}

std::string replace_file_atomically(const fs::path& path, const std::function<std::string(const fs::path&)>& write) {
  const fs::path temporary = temporary_path_for(path);
  std::error_code ec;
  if (std::string problem = write(temporary); !problem.empty()) {
    fs::remove(temporary, ec);
    return problem;
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return "cannot write " + path.string() + ": " + ec.message();
  }
  return {};
}

std::string write_file_atomically(const fs::path& path, std::string_view content) {
  return replace_file_atomically(path, [&](const fs::path& temporary) { return write_new_file(temporary, content); });
}

std::string check_writable(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path.string() + " is a directory";
  const fs::path temporary = temporary_path_for(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return errno_text();
  ::close(fd);
  fs::remove(temporary, ec);
  return {};
}

}  // namespace ctrlsched::driver

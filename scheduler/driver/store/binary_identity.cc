// Reading a binary's identity (see binary_identity.h).
#include "store/binary_identity.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

std::string build_id_of(int fd) {
  if (::elf_version(EV_CURRENT) == EV_NONE) return "";
  Elf* elf = ::elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  if (elf == nullptr) return "";
  const void* bytes = nullptr;
  const ssize_t length = ::dwelf_elf_gnu_build_id(elf, &bytes);
  std::string hex;
  static const char kDigits[] = "0123456789abcdef";
  for (ssize_t i = 0; i < length; ++i) {
    const auto byte = static_cast<const unsigned char*>(bytes)[i];
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 15];
  }
  ::elf_end(elf);
  return hex;
}

}  // namespace

std::string BinaryIdentity::key() const {
  if (!build_id.empty()) return "build-id:" + build_id;
  return "file:" + path + ":" + std::to_string(size) + ":" + std::to_string(mtime_ns);
}

BinaryIdentity identify_binary(const std::string& path) {
  BinaryIdentity id;
  std::error_code ec;
  id.path = std::filesystem::absolute(path, ec).lexically_normal().string();
  if (ec) id.path = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw DriverError(ExitCode::CannotRun, "cannot read " + path + ": " + why);
  }
  id.size = static_cast<std::uint64_t>(st.st_size);
  id.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  id.build_id = build_id_of(fd);
  ::close(fd);
  return id;
}

}  // namespace ctrlsched::driver

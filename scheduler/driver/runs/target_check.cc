// Target checks: path lookup, file type, permissions and ELF inspection (see target_check.h).
#include "runs/target_check.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

constexpr std::size_t kMaxHeadBytes = 1 << 20;

std::string machine_name(std::uint16_t machine) {
  switch (machine) {
    case EM_386: return "i386";
    case EM_ARM: return "32-bit ARM";
    case EM_AARCH64: return "AArch64";
    case EM_RISCV: return "RISC-V";
    case EM_PPC64: return "PowerPC 64";
    case EM_S390: return "s390";
    case EM_MIPS: return "MIPS";
    default: return "machine type " + std::to_string(machine);
  }
}

[[noreturn]] void cannot_run(const std::string& message) {
  throw DriverError(ExitCode::CannotRun, message);
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::size_t elf_bytes_needed(std::span<const std::uint8_t> head) {
  if (head.size() < sizeof(Elf64_Ehdr) || std::memcmp(head.data(), ELFMAG, SELFMAG) != 0 ||
      head[EI_CLASS] != ELFCLASS64) {
    return sizeof(Elf64_Ehdr);
  }
  Elf64_Ehdr ehdr;
  std::memcpy(&ehdr, head.data(), sizeof ehdr);
  const std::uint64_t end = ehdr.e_phoff + std::uint64_t{ehdr.e_phnum} * ehdr.e_phentsize;
  return static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(end, sizeof ehdr), kMaxHeadBytes));
}

std::optional<std::string> elf_problem(std::span<const std::uint8_t> head, std::uint64_t file_size) {
  if (head.size() >= 2 && head[0] == '#' && head[1] == '!') {
    return "is a script; run ctrlsched on the binary it starts";
  }
  if (head.size() < SELFMAG || std::memcmp(head.data(), ELFMAG, SELFMAG) != 0) {
    return "is not an ELF executable";
  }
  if (head.size() <= EI_CLASS || (head[EI_CLASS] != ELFCLASS64 && head[EI_CLASS] != ELFCLASS32)) {
    return "is a corrupt ELF file (bad class byte)";
  }
  if (head[EI_CLASS] == ELFCLASS32) {
    return "is a 32-bit ELF file; ctrlsched runs x86-64 (64-bit) programs only";
  }
  if (head.size() < sizeof(Elf64_Ehdr)) return "is a truncated ELF file";
  Elf64_Ehdr ehdr;
  std::memcpy(&ehdr, head.data(), sizeof ehdr);
  if (ehdr.e_ident[EI_DATA] != ELFDATA2LSB) return "is a big-endian ELF file; ctrlsched runs x86-64 programs only";
  if (ehdr.e_machine != EM_X86_64) {
    return "is an ELF file for " + machine_name(ehdr.e_machine) + "; ctrlsched runs x86-64 programs only";
  }
  if (ehdr.e_type == ET_REL) return "is an object file (.o), not a linked program";
  if (ehdr.e_type == ET_CORE) return "is a core dump, not a program";
  if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN) return "is not an executable ELF file";
  if (ehdr.e_phentsize != sizeof(Elf64_Phdr) || ehdr.e_phnum == 0) {
    return "has no usable program headers";
  }
  const std::uint64_t end = ehdr.e_phoff + std::uint64_t{ehdr.e_phnum} * sizeof(Elf64_Phdr);
  if (end > head.size()) {
    return end > file_size ? "is a truncated ELF file" : "has program headers too far into the file";
  }
  bool has_interp = false;
  for (std::uint16_t i = 0; i < ehdr.e_phnum; ++i) {
    Elf64_Phdr phdr;
    std::memcpy(&phdr, head.data() + ehdr.e_phoff + i * sizeof phdr, sizeof phdr);
    if (phdr.p_type == PT_INTERP) has_interp = true;
  }
  // No PT_INTERP: the kernel starts the program without the dynamic loader (static or static-pie),
  // so nothing would ever load the shim.
  if (!has_interp) return "is statically linked; LD_PRELOAD cannot work — link it dynamically";
  return std::nullopt;
}

std::string resolve_target(const std::string& as_written, const char* path_env) {
  if (as_written.find('/') != std::string::npos) return as_written;
  const std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  std::string first_found;  // a match that is not executable, for a better message
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (dir.empty()) dir = ".";  // an empty PATH entry means the current directory
    const std::string candidate = dir + "/" + as_written;
    if (is_executable_file(candidate)) return candidate;
    if (first_found.empty() && ::access(candidate.c_str(), F_OK) == 0) first_found = candidate;
    start = end + 1;
  }
  if (!first_found.empty()) return first_found;  // check_target says what is wrong with it
  cannot_run("'" + as_written + "' not found in PATH (write ./" + as_written +
             " for a program in the current directory)");
}

std::string check_target(const std::string& as_written) {
  const std::string path = resolve_target(as_written, std::getenv("PATH"));
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) cannot_run(path + ": no such file");
    cannot_run(path + ": " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) cannot_run(path + " is a directory, not a program");
  if (!S_ISREG(st.st_mode)) cannot_run(path + " is not a regular file");
  if (::access(path.c_str(), X_OK) != 0) {
    cannot_run(path + " is not executable (" + std::strerror(errno) + ")");
  }
  // The loader runs a program that changes its user or group in secure mode, which ignores
  // LD_PRELOAD: the shim would never load. (Set-id to ourselves changes nothing.)
  if (((st.st_mode & S_ISUID) && st.st_uid != ::geteuid()) || ((st.st_mode & S_ISGID) && st.st_gid != ::getegid())) {
    cannot_run(path + " is a set-user-ID or set-group-ID program; the loader ignores LD_PRELOAD for it");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) cannot_run(path + ": cannot read it (" + std::strerror(errno) + ")");
  std::vector<std::uint8_t> head(sizeof(Elf64_Ehdr));
  ssize_t got = ::pread(fd, head.data(), head.size(), 0);
  if (got >= 0) {
    head.resize(static_cast<std::size_t>(got));
    const std::size_t needed = elf_bytes_needed(head);
    if (needed > head.size()) {
      head.resize(needed);
      got = ::pread(fd, head.data(), head.size(), 0);
      head.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    }
  }
  const int read_errno = errno;
  ::close(fd);
  if (got < 0) cannot_run(path + ": cannot read it (" + std::strerror(read_errno) + ")");
  if (const auto problem = elf_problem(head, static_cast<std::uint64_t>(st.st_size))) {
    cannot_run(path + " " + *problem);
  }
  return path;
}

}  // namespace ctrlsched::driver

// Checks, before any run, that the test program can run under the LD_PRELOAD shim at all.
//
// Each problem we can see statically (missing file, not executable, a script, a static binary, an
// ELF for another machine) becomes one clear line and exit code 3, instead of a thousand runs that
// all "fail" the same mysterious way. The ELF inspection is a pure function over the file's
// first bytes so it is unit-tested with crafted headers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ctrlsched::driver {

// What is wrong with an executable whose leading bytes are `head` (at least the ELF header and
// the program header table, when they fit), as a phrase to follow the file name, e.g.
// "is a script; run ctrlsched on the binary it starts". nullopt: a dynamically linked x86-64
// executable. `file_size` tells a truncated file from a short read.
std::optional<std::string> elf_problem(std::span<const std::uint8_t> head, std::uint64_t file_size);

// How many leading bytes elf_problem needs for this header (ELF header + program headers).
std::size_t elf_bytes_needed(std::span<const std::uint8_t> head);

// Resolves the target like a shell: a name containing '/' is a path, a bare name is looked up in
// `path_env` (PATH). Returns the path to execute.
std::string resolve_target(const std::string& as_written, const char* path_env);

// Resolves and checks the target; throws DriverError(CannotRun) with a one-line message.
std::string check_target(const std::string& as_written);

}  // namespace ctrlsched::driver

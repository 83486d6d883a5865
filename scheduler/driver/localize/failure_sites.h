// Failure sites found without a failing run (ConSeq section 5, simplified): the functions of an
// executable whose machine code calls a failure function: __assert_fail, abort, exit, _exit,
// perror, or a function the user names (--failure-site FUNC).
//
// How: read the ELF file with libelf; list the function symbols (.symtab, else .dynsym); find
// the call targets that mean "a failure function": the symbol's own address when the executable
// defines it, and for imported functions the GOT slots of their JUMP_SLOT / GLOB_DAT
// relocations; then scan each function's bytes for `call rel32` (e8) whose target is such an
// address or a PLT stub (endbr64 and bnd prefixes skipped) jumping through such a slot, and for
// `call *slot(%rip)` (ff 15, -fno-plt). A byte scan, not a disassembly: an e8 byte inside
// another instruction whose following 4 bytes happen to point exactly at a failure stub would
// count too (rare, and it only adds a function). Calls through other registers are not seen.
// A GCC "f.cold" part that calls a failure function makes f a failure-site function as well.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ctrlsched::driver {

// The calls every failure-site search looks for, besides the user's.
inline const std::vector<std::string> kDefaultFailureCalls = {"__assert_fail", "abort", "exit", "_exit",
                                                              "perror"};

struct FailureSiteFunction {
  std::string name;   // the function's symbol name
  std::uint64_t low = 0;   // its code: module-relative offsets [low, high) (ELF addresses; equal
  std::uint64_t high = 0;  // to offsets from the load bias for PIE and non-PIE executables alike)
  std::vector<std::string> calls;  // the failure functions it calls, sorted, unique
};

// Sorted by low address. Returns nullopt and sets `error` if the file cannot be read as ELF.
std::optional<std::vector<FailureSiteFunction>> find_failure_site_functions(
    const std::string& elf_path, const std::vector<std::string>& extra_calls, std::string* error = nullptr);

}  // namespace ctrlsched::driver

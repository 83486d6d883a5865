// Target checks before any run: crafted ELF headers for each problem the driver names, and
// PATH lookup like a shell.
#include <catch2/catch.hpp>

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "exit_codes.h"
#include "runs/target_check.h"

using namespace ctrlsched::driver;

namespace {

// A minimal x86-64 ELF image: header + `types` program headers right after it.
std::vector<std::uint8_t> elf(std::vector<std::uint32_t> types, std::uint16_t e_type = ET_DYN,
                              std::uint16_t machine = EM_X86_64) {
  Elf64_Ehdr ehdr{};
  std::memcpy(ehdr.e_ident, ELFMAG, SELFMAG);
  ehdr.e_ident[EI_CLASS] = ELFCLASS64;
  ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
  ehdr.e_ident[EI_VERSION] = EV_CURRENT;
  ehdr.e_type = e_type;
  ehdr.e_machine = machine;
  ehdr.e_phoff = sizeof ehdr;
  ehdr.e_phentsize = sizeof(Elf64_Phdr);
  ehdr.e_phnum = static_cast<std::uint16_t>(types.size());
  std::vector<std::uint8_t> bytes(sizeof ehdr + types.size() * sizeof(Elf64_Phdr));
  std::memcpy(bytes.data(), &ehdr, sizeof ehdr);
  for (std::size_t i = 0; i < types.size(); ++i) {
    Elf64_Phdr phdr{};
    phdr.p_type = types[i];
    std::memcpy(bytes.data() + sizeof ehdr + i * sizeof phdr, &phdr, sizeof phdr);
  }
  return bytes;
}

std::string problem(const std::vector<std::uint8_t>& bytes) {
  return elf_problem(bytes, bytes.size()).value_or("OK");
}

std::vector<std::uint8_t> text(const std::string& s) { return {s.begin(), s.end()}; }

}  // namespace

TEST_CASE("a dynamically linked x86-64 program passes") {
  CHECK(problem(elf({PT_PHDR, PT_INTERP, PT_LOAD, PT_DYNAMIC})) == "OK");
  CHECK(problem(elf({PT_INTERP, PT_LOAD}, ET_EXEC)) == "OK");
}

TEST_CASE("each problem gets its own phrase") {
  CHECK(problem(text("#!/bin/sh\necho hi\n")) == "is a script; run ctrlsched on the binary it starts");
  CHECK(problem(text("hello")) == "is not an ELF executable");
  CHECK(problem({}) == "is not an ELF executable");
  CHECK(problem(elf({PT_LOAD})) == "is statically linked; LD_PRELOAD cannot work — link it dynamically");
  CHECK(problem(elf({PT_LOAD, PT_DYNAMIC})).starts_with("is statically linked"));  // static-pie
  CHECK(problem(elf({PT_INTERP}, ET_EXEC, EM_AARCH64)) == "is an ELF file for AArch64; ctrlsched runs x86-64 programs only");
  CHECK(problem(elf({}, ET_REL)) == "is an object file (.o), not a linked program");
  CHECK(problem(elf({PT_INTERP}, ET_CORE)) == "is a core dump, not a program");
  std::vector<std::uint8_t> elf32 = elf({PT_INTERP});
  elf32[EI_CLASS] = ELFCLASS32;
  CHECK(problem(elf32) == "is a 32-bit ELF file; ctrlsched runs x86-64 (64-bit) programs only");
  std::vector<std::uint8_t> truncated = elf({PT_INTERP, PT_LOAD});
  truncated.resize(sizeof(Elf64_Ehdr) + 10);
  CHECK(problem(truncated) == "is a truncated ELF file");
}

TEST_CASE("elf_bytes_needed covers the program headers") {
  const auto bytes = elf({PT_INTERP, PT_LOAD, PT_LOAD});
  CHECK(elf_bytes_needed(std::span(bytes).first(sizeof(Elf64_Ehdr))) == bytes.size());
  CHECK(elf_bytes_needed(text("#!")) == sizeof(Elf64_Ehdr));
}

TEST_CASE("targets resolve like a shell: a '/' means a path, a bare name is looked up in PATH") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ctrlsched_target_test_" + std::to_string(::getpid()));
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  { std::ofstream(dir / "a" / "prog") << "x"; }
  { std::ofstream(dir / "b" / "prog") << "x"; }
  fs::permissions(dir / "b" / "prog", fs::perms::owner_all);
  const std::string path = (dir / "a").string() + ":" + (dir / "b").string();
  CHECK(resolve_target("./prog", path.c_str()) == "./prog");
  CHECK(resolve_target("prog", path.c_str()) == (dir / "b" / "prog").string());  // a/prog is not executable
  try {
    resolve_target("no_such_program_here", path.c_str());
    FAIL("expected an error");
  } catch (const DriverError& e) {
    CHECK(e.code() == ExitCode::CannotRun);
    CHECK(std::string(e.what()).find("not found in PATH") != std::string::npos);
  }
  fs::remove_all(dir);
}

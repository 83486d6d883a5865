// Bad inputs: every one gives its documented exit code (scheduler/driver/exit_codes.h: 2 usage,
// 3 cannot run the target, 5 bad schedule or handle) and one "ctrlsched: <what>" line on stderr —
// no stack trace, no exception text, nothing on stdout — and returns promptly (the helper's time
// limit). Usage errors may add the single hint line "Try 'ctrlsched --help'.".
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <regex>

#include "e2e.h"

using namespace e2e;

namespace {

constexpr const char* kUsageHint = "Try 'ctrlsched --help'.";

struct BadInput {
  std::string label;
  std::vector<std::string> args;  // after `ctrlsched`
  int exit_code;
  std::string message;            // regex the error line (after "ctrlsched: ") must match
};

void check_error(const TempDir& dir, const BadInput& bad) {
  Command c;
  c.argv = {ctrlsched_path()};
  c.argv.insert(c.argv.end(), bad.args.begin(), bad.args.end());
  c.cwd = dir.path();
  c.timeout_seconds = 30;
  const Process p = run(c);
  INFO(bad.label);
  INFO(p.describe());
  REQUIRE_FALSE(p.timed_out);
  CHECK(p.exit_code == bad.exit_code);
  CHECK(p.out.empty());
  const std::vector<std::string> err = lines(p.err);
  REQUIRE_FALSE(err.empty());
  CHECK(err[0].rfind("ctrlsched: ", 0) == 0);
  CHECK(std::regex_search(err[0].substr(std::min<std::size_t>(11, err[0].size())), std::regex(bad.message)));
  if (bad.exit_code == 2) {
    CHECK(err.size() <= 2);
    if (err.size() == 2) CHECK(err[1] == kUsageHint);
  } else {
    CHECK(err.size() == 1);
  }
  for (const char* trace : {"terminate called", "what():", "Aborted", "#0 ", "internal error", "Segmentation"}) {
    CHECK_FALSE(contains(p.err, trace));
  }
}

void write_text(const fs::path& path, const std::string& text, bool executable) {
  std::ofstream(path) << text;
  fs::permissions(path, executable ? fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read
                                   : fs::perms::owner_read | fs::perms::owner_write);
}

}  // namespace

TEST_CASE("a target that cannot run is refused with exit code 3 and one line", "[errors]") {
  TempDir dir;
  const std::string good = program("mutex_exclusion");
  fs::copy_file(good, dir / "not_executable");
  fs::permissions(dir / "not_executable", fs::perms::owner_read | fs::perms::owner_write);
  write_text(dir / "script.sh", "#!/bin/sh\nexit 0\n", true);
  write_text(dir / "text_file", "just some text, executable but not a program\n", true);
  write_text(dir / "empty_file", "", true);
  fs::create_directory(dir / "a_directory");
  // An ELF file that is not a program: an object file.
  {
    Command c;
    c.argv = {"cc", "-c", (programs_source_dir() / "static_hello.c").string(), "-o", (dir / "object.o").string()};
    REQUIRE(run(c).exit_code == 0);
    fs::permissions(dir / "object.o", fs::perms::owner_all);
  }
  // A program whose dynamic loader fails: it needs a shared library that is gone.
  {
    std::ofstream(dir / "libgone.c") << "int gone(void) { return 0; }\n";
    std::ofstream(dir / "needs_gone.c") << "int gone(void);\nint main(void) { return gone(); }\n";
    Command c;
    c.cwd = dir.path();
    c.argv = {"cc", "-shared", "-fPIC", "libgone.c", "-o", "libgone.so"};
    REQUIRE(run(c).exit_code == 0);
    c.argv = {"cc", "needs_gone.c", "-L.", "-lgone", "-Wl,-rpath," + dir.path().string(), "-o", "needs_gone"};
    REQUIRE(run(c).exit_code == 0);
    fs::remove(dir / "libgone.so");
  }
  // ELF files for another class and another machine: a real program with one header byte changed.
  auto patched = [&](const std::string& name, std::size_t offset, char value) {
    std::string bytes = read_file(good);
    REQUIRE(bytes.size() > offset);
    bytes[offset] = value;
    std::ofstream(dir / name, std::ios::binary) << bytes;
    fs::permissions(dir / name, fs::perms::owner_all);
  };
  patched("elf32", 4, 1);          // EI_CLASS = ELFCLASS32
  patched("aarch64", 18, char(183));  // e_machine (low byte) = EM_AARCH64
  const std::vector<BadInput> cases = {
      {"dynamic loader fails", {"--seeds", "5", "./needs_gone"}, 3, "libgone.so"},
      {"32-bit ELF", {"--seeds", "5", "./elf32"}, 3, "32-bit"},
      {"ELF for another machine", {"--seeds", "5", "./aarch64"}, 3, "AArch64"},
      {"missing target", {"--seeds", "5", "./no_such_program"}, 3, "no_such_program.*(no such file|not found)"},
      {"missing target in PATH", {"--seeds", "5", "no_such_program_anywhere"}, 3, "not found"},
      {"not executable", {"--seeds", "5", "./not_executable"}, 3, "not executable"},
      {"shell script", {"--seeds", "5", "./script.sh"}, 3, "script"},
      {"static binary", {"--seeds", "5", program("static_hello")}, 3, "statically linked"},
      {"text file", {"--seeds", "5", "./text_file"}, 3, "not an ELF"},
      {"empty file", {"--seeds", "5", "./empty_file"}, 3, "not an ELF"},
      {"directory", {"--seeds", "5", "./a_directory"}, 3, "directory"},
      {"object file", {"--seeds", "5", "./object.o"}, 3, "object file"},
      {"replay of a static binary", {"replay", "--seed", "1", program("static_hello")}, 3, "statically linked"},
  };
  for (const BadInput& bad : cases) check_error(dir, bad);
}

TEST_CASE("bad options are usage errors: exit code 2 and one line", "[errors]") {
  TempDir dir;
  const std::string t = program("mutex_exclusion");
  const std::vector<BadInput> cases = {
      {"--seeds 0", {"--seeds", "0", t}, 2, "--seeds"},
      {"--seeds abc", {"--seeds", "abc", t}, 2, "--seeds.*abc"},
      {"--seeds -5", {"--seeds", "-5", t}, 2, "--seeds"},
      {"--seeds 1.5", {"--seeds", "1.5", t}, 2, "--seeds"},
      {"--seeds=", {"--seeds=", t}, 2, "--seeds"},
      {"--strategy foo", {"--strategy", "foo", t}, 2, "foo"},
      {"--depth 0", {"--depth", "0", t}, 2, "--depth"},
      {"--depth with random", {"--strategy", "random", "--depth", "2", t}, 2, "--depth"},
      {"--preemption-bound with pct", {"--strategy", "pct", "--preemption-bound", "2", t}, 2, "--preemption-bound"},
      {"--preemption-bound with pos", {"--strategy", "pos", "--preemption-bound", "2", t}, 2, "--preemption-bound"},
      {"--depth with the portfolio named", {"--strategy", "portfolio", "--depth", "4", t}, 2, "--depth"},
      // Without --strategy, --depth selects pct, which takes no preemption bound.
      {"--preemption-bound with --depth and no strategy", {"--depth", "4", "--preemption-bound", "2", t}, 2, "--preemption-bound"},
      {"--points bogus", {"--points", "bogus", t}, 2, "--points"},
      {"--timeout 0", {"--timeout", "0", t}, 2, "--timeout"},
      {"--timeout nan", {"--timeout", "nan", t}, 2, "--timeout"},
      {"-j 0", {"-j", "0", t}, 2, "--jobs"},
      {"unknown option", {"--frobnicate", t}, 2, "unknown option '--frobnicate'"},
      {"unknown short option", {"-x", t}, 2, "unknown option '-x'"},
      {"flag with a value", {"--quiet=yes", t}, 2, "--quiet"},
      {"no target", {"--seeds", "5"}, 2, "missing the test program"},
      {"nothing at all", {}, 2, "missing the test program"},
      {"option needing a value at the end", {"--seeds"}, 2, "--seeds.*needs a value"},
      {"replay-only option in seeds mode", {"--seed", "3", t}, 2, "--seed.*replay"},
      {"seeds-only option in replay mode", {"replay", "--seed", "3", "--seeds", "5", t}, 2, "--seeds.*replay"},
      {"replay without what to replay", {"replay", t}, 2, "replay needs"},
      {"replay with --seed and --schedule", {"replay", "--seed", "1", "--schedule", "x.sched", t}, 2, "only one"},
      {"--json into a missing directory", {"--seeds", "2", "--json", "no/such/dir/r.json", t}, 2, "--json"},
  };
  for (const BadInput& bad : cases) check_error(dir, bad);
}

TEST_CASE("bad schedule files and bad handles: exit code 5 and one line", "[errors]") {
  TempDir dir;
  const std::string t = example("abba_deadlock");
  // A real schedule to corrupt.
  const SeedsRun r = run_seeds(dir, t, {"--seeds", "50", "-j2"});
  INFO(r.describe());
  REQUIRE(r.failures() > 0);
  fs::path saved;
  for (const auto& entry : fs::directory_iterator(r.schedules)) saved = entry.path();
  REQUIRE_FALSE(saved.empty());
  const std::string text = read_file(saved);
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = text;
    const std::size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    return s;
  };
  const auto schedule = read_schedule_file(saved);
  REQUIRE(schedule.has_value());
  write_text(dir / "garbage.sched", "this is not a schedule\n", false);
  write_text(dir / "empty.sched", "", false);
  write_text(dir / "version.sched", replace("ctrlsched-schedule 1", "ctrlsched-schedule 99"), false);
  write_text(dir / "hash.sched", replace("hash " + schedule->hash, "hash 0123456789abcdef"), false);
  write_text(dir / "count.sched",
             replace("decisions " + std::to_string(schedule->decisions.size()),
                     "decisions " + std::to_string(schedule->decisions.size() + 1)),
             false);
  write_text(dir / "token.sched", text + "Q7\n", false);
  fs::create_directory(dir / "dir.sched");

  const std::vector<BadInput> cases = {
      {"missing schedule file", {"replay", "--schedule", "no_such.sched", t}, 5, "no_such.sched"},
      {"schedule file is a directory", {"replay", "--schedule", "dir.sched", t}, 5, "dir.sched"},
      {"garbage schedule file", {"replay", "--schedule", "garbage.sched", t}, 5, "garbage.sched"},
      {"empty schedule file", {"replay", "--schedule", "empty.sched", t}, 5, "empty.sched"},
      {"unknown format version", {"replay", "--schedule", "version.sched", t}, 5, "version.sched"},
      {"hash does not match the decisions", {"replay", "--schedule", "hash.sched", t}, 5, "hash.sched"},
      {"decision count does not match", {"replay", "--schedule", "count.sched", t}, 5, "count.sched"},
      {"bad decision token", {"replay", "--schedule", "token.sched", t}, 5, "token.sched"},
      {"handle with a bad seed", {"replay", "zz:pct:d3:k10", t}, 5, "zz:pct:d3:k10"},
      {"handle with a bad strategy", {"replay", "5:foo", t}, 5, "5:foo"},
      {"handle with a bad hash", {"replay", "5:pct:d3:k10@xyz", t}, 5, "@xyz"},
      {"handle with a short hash", {"replay", "5:random@12ab", t}, 5, "12ab"},
      {"handle with a pct depth of 0", {"replay", "5:pct:d0:k10", t}, 5, "5:pct:d0:k10"},
      {"handle with an unknown field", {"replay", "5:random:zz9", t}, 5, "5:random:zz9"},
      {"empty handle", {"replay", ":", t}, 5, ""},
      // Found by fuzzing: control characters in the quoted input are escaped, one line.
      {"handle with a newline", {"replay", "a\nndom:bp2", t}, 5, "bad handle 'a\\\\nndom:bp2'"},  // regex: a literal backslash
  };
  for (const BadInput& bad : cases) check_error(dir, bad);
}

// Instrumented builds: bugs between two plain memory accesses (lost_update, a check-then-act on
// plain variables) cannot fail with sync points but are found with access points, for gcc- and
// clang-instrumented binaries; their failing seeds replay; instrumented binaries still run
// natively; the compiler wrappers build programs in one step and in two steps with both compilers.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <csignal>
#include <regex>

#include "e2e.h"

using namespace e2e;

namespace {

struct AccessBug {
  std::string label;     // for the section name
  std::string path;      // the instrumented binary
  std::string compiler;  // "gcc" or "clang"
  std::string file;      // source basename of the failing assertion
  int line;              // its line
};

std::vector<AccessBug> access_bugs() {
  std::vector<AccessBug> bugs;
  const fs::path lost_update = examples_source_dir() / "lost_update.c";
  const fs::path plain = programs_source_dir() / "plain_check_then_act.c";
  const auto lu_site = header_failure_site(lost_update);
  const int lu_line = lu_site ? lu_site->second : -1;
  const int plain_line = line_containing(plain, "slot claimed twice");
  // Every example expected.txt marks as access-only, with the build the examples provide (gcc).
  for (const ExpectedExample& e : expected_examples()) {
    if (!e.buggy() || e.points != "access") continue;
    const auto site = header_failure_site(e.source);
    bugs.push_back({e.name + " (gcc, examples' instrumented build)", binary("example_inst", e.name), "gcc",
                    site ? site->first : "?", site ? site->second : -1});
  }
  bugs.push_back({"lost_update (clang via ctrlsched-cc)", find_binary("clang_inst", "lost_update").value_or(""), "clang",
                  "lost_update.c", lu_line});
  bugs.push_back({"plain_check_then_act (gcc via ctrlsched_instrument)", binary("program_inst", "plain_check_then_act"),
                  "gcc", "plain_check_then_act.c", plain_line});
  bugs.push_back({"plain_check_then_act (clang via ctrlsched-cc)",
                  find_binary("clang_inst", "plain_check_then_act").value_or(""), "clang", "plain_check_then_act.c",
                  plain_line});
  return bugs;
}

// What the binary's bytes say about how it was built: instrumented binaries call the TSan ABI
// hooks; clang leaves "clang version" in .comment (gcc's crt objects leave "GCC:" in every
// binary, so only the absence of clang identifies a gcc build).
void check_built_by(const std::string& path, const std::string& compiler) {
  const std::string bytes = read_file(path);
  INFO("binary " << path);
  REQUIRE_FALSE(bytes.empty());
  CHECK(contains(bytes, "__tsan_func_entry"));
  CHECK((contains(bytes, "__tsan_read4") || contains(bytes, "__tsan_write4")));
  CHECK(contains(bytes, "libctrlsched_hooks.so"));
  if (compiler == "clang") {
    CHECK(contains(bytes, "clang version"));
  } else {
    CHECK_FALSE(contains(bytes, "clang version"));
  }
}

// Runs `target` natively a few times: it must start (no missing symbols) and either pass or end
// the way its bug ends; it must never fail to load.
void check_runs_natively(const std::string& target, const std::string& expect, int times) {
  for (int i = 0; i < times; ++i) {
    const Process p = run({target}, expect == "deadlock" || expect == "hang" ? 10 : 60);
    INFO(p.describe());
    CHECK_FALSE(contains(p.err, "symbol lookup error"));
    CHECK_FALSE(contains(p.err, "undefined symbol"));
    CHECK_FALSE(contains(p.err, "error while loading shared libraries"));
    CHECK_FALSE(contains(p.err, "ThreadSanitizer"));  // the real TSan runtime must not be in there
    if (p.exit_code == 0) continue;
    INFO("not a pass: it must be the example's own failure (" << expect << ")");
    if (expect == "assertion") {
      CHECK(p.term_signal == SIGABRT);
      CHECK(contains(p.err, "Assertion"));
    } else if (expect == "signal") {
      CHECK((p.term_signal == SIGSEGV || p.term_signal == SIGBUS));
    } else if (expect == "deadlock" || expect == "hang") {
      CHECK(p.timed_out);
    } else {
      FAIL("a correct example must pass natively");
    }
  }
}

}  // namespace

TEST_CASE("access-only bugs: never with --points sync, found with access points, replayable",
          "[instrumented]") {
  for (const AccessBug& bug : access_bugs()) {
    DYNAMIC_SECTION(bug.label) {
      INFO("target " << bug.path);
      REQUIRE_FALSE(bug.path.empty());  // a clang build exists (clang found at configure time)
      REQUIRE(bug.line > 0);
      check_built_by(bug.path, bug.compiler);

      TempDir dir;
      {  // With sync points the window between the load and the store holds no scheduling point.
        const SeedsRun r = run_seeds(dir, bug.path, {"--seeds", "1000", "-j2", "--points", "sync", "--stop-after", "1"});
        INFO(r.describe());
        REQUIRE(r.json.is_object());
        CHECK(r.process.exit_code == 0);
        CHECK(r.failures() == 0);
        CHECK(r.json["summary"]["points"] == "sync");
        CHECK(r.json["summary"]["seeds"] == 1000);
      }
      // With access points (the default for an instrumented binary, and explicitly), both
      // strategies find it within 1000 seeds.
      for (const std::vector<std::string>& options :
           {std::vector<std::string>{}, std::vector<std::string>{"--points", "accesses"},
            std::vector<std::string>{"--strategy", "random"}}) {
        std::vector<std::string> all = {"--seeds", "1000", "-j2", "--stop-after", "3"};
        all.insert(all.end(), options.begin(), options.end());
        const SeedsRun r = run_seeds(dir, bug.path, all);
        INFO(r.describe());
        REQUIRE(r.json.is_object());
        CHECK(r.process.exit_code == 1);
        REQUIRE(r.failures() > 0);
        CHECK(r.json["summary"]["points"] == (options.empty() || options[0] != "--points" ? "auto" : "accesses"));
        for (const Json& g : r.groups()) {
          INFO("group " << g.dump());
          CHECK(g["kind"] == "assertion");
          CHECK(basename(g["file"].get<std::string>()) == bug.file);
          CHECK(g["line"] == bug.line);
        }
        // Its failing seeds replay (the handle carries the points mode when it is not the default).
        int replayed = 0;
        for (const Json& run : r.runs()) {
          if (run["outcome"] != "fail" || replayed == 2) continue;
          ++replayed;
          const Process p = run_replay(dir, {run["handle"].get<std::string>()}, bug.path);
          INFO(p.describe());
          CHECK(p.exit_code == 1);
          CHECK(replay_fail_message(p.out) == run["failure"]["message"].get<std::string>());
          CHECK(contains(p.out, "replay matched schedule " + run["schedule_hash"].get<std::string>()));
        }
        CHECK(replayed > 0);
      }
    }
  }
}

TEST_CASE("the uninstrumented build of an access-only example passes 1000 seeds", "[instrumented]") {
  for (const ExpectedExample& e : expected_examples()) {
    if (!e.buggy() || e.points != "access") continue;
    DYNAMIC_SECTION(e.name) {
      TempDir dir;
      const SeedsRun r = run_seeds(dir, example(e.name), {"--seeds", "1000", "-j2", "--stop-after", "1"});
      INFO(r.describe());
      REQUIRE(r.json.is_object());
      CHECK(r.process.exit_code == 0);
      CHECK(r.failures() == 0);
      const std::string bytes = read_file(example(e.name));
      CHECK_FALSE(contains(bytes, "__tsan_func_entry"));  // really the plain build
    }
  }
}

TEST_CASE("instrumented builds run natively, without ctrlsched", "[instrumented]") {
  for (const ExpectedExample& e : expected_examples()) {
    DYNAMIC_SECTION(e.name << " (" << e.expect << ")") {
      const std::string target = binary("example_inst", e.name);
      check_built_by(target, "gcc");
      check_runs_natively(target, e.expect, e.buggy() ? 5 : 3);
    }
  }
  SECTION("clang builds") {
    for (const std::string name : {"lost_update", "plain_check_then_act"}) {
      const auto target = find_binary("clang_inst", name);
      REQUIRE(target.has_value());
      check_runs_natively(*target, "assertion", 5);
    }
  }
}

TEST_CASE("the compiler wrappers build instrumented programs in one step and in two steps", "[instrumented]") {
  const fs::path source = examples_source_dir() / "lost_update.c";
  for (const std::string compiler : {"gcc", "clang"}) {
    for (const std::string steps : {"one step", "two steps"}) {
      DYNAMIC_SECTION("ctrlsched-cc with " << compiler << ", " << steps) {
        TempDir dir;
        Command c;
        c.cwd = dir.path();
        c.timeout_seconds = 120;
        if (compiler == "clang") {
          REQUIRE_FALSE(clang_path().empty());
          c.env.emplace_back("CTRLSCHED_CC", clang_path());
        } else {
          c.env.emplace_back("CTRLSCHED_CC", "gcc");
        }
        const std::string out = (dir / "lost_update").string();
        if (steps == "one step") {
          c.argv = {wrapper_cc_path(), "-g", "-O1", "-UNDEBUG", source.string(), "-o", out};
          const Process p = run(c);
          INFO(p.describe());
          REQUIRE(p.exit_code == 0);
        } else {
          const std::string object = (dir / "lost_update.o").string();
          c.argv = {wrapper_cc_path(), "-g", "-O1", "-UNDEBUG", "-c", source.string(), "-o", object};
          const Process compile = run(c);
          INFO(compile.describe());
          REQUIRE(compile.exit_code == 0);
          REQUIRE(fs::exists(object));
          c.argv = {wrapper_cc_path(), object, "-o", out};
          const Process link = run(c);
          INFO(link.describe());
          REQUIRE(link.exit_code == 0);
        }
        REQUIRE(fs::exists(out));
        check_built_by(out, compiler);
        check_runs_natively(out, "assertion", 2);
        // Under ctrlsched it is the instrumented bug: found with access points, not with sync.
        const SeedsRun sync = run_seeds(dir, out, {"--seeds", "300", "-j2", "--points", "sync", "--stop-after", "1"});
        INFO(sync.describe());
        CHECK(sync.process.exit_code == 0);
        const SeedsRun found = run_seeds(dir, out, {"--seeds", "1000", "-j2", "--stop-after", "1"});
        INFO(found.describe());
        CHECK(found.process.exit_code == 1);
        REQUIRE(found.json.is_object());
        REQUIRE_FALSE(found.groups().empty());
        CHECK(found.groups()[0]["kind"] == "assertion");
      }
    }
  }
  for (const std::string compiler : {"g++", "clang++"}) {
    DYNAMIC_SECTION("ctrlsched-c++ with " << compiler << ", one step") {
      TempDir dir;
      Command c;
      c.cwd = dir.path();
      c.timeout_seconds = 180;
      const std::string cxx = compiler == "g++" ? "g++" : clangxx_path();
      REQUIRE_FALSE(cxx.empty());
      c.env.emplace_back("CTRLSCHED_CXX", cxx);
      const std::string out = (dir / "cpp_cache").string();
      c.argv = {wrapper_cxx_path(), "-g", "-O1", "-UNDEBUG", "-std=c++20",
                (examples_source_dir() / "cpp_cache.cpp").string(), "-o", out};
      const Process p = run(c);
      INFO(p.describe());
      REQUIRE(p.exit_code == 0);
      check_built_by(out, compiler == "g++" ? "gcc" : "clang");
      check_runs_natively(out, "assertion", 2);
      const SeedsRun found = run_seeds(dir, out, {"--seeds", "1000", "-j2", "--stop-after", "1"});
      INFO(found.describe());
      CHECK(found.process.exit_code == 1);
      REQUIRE(found.json.is_object());
      REQUIRE_FALSE(found.groups().empty());
      CHECK(found.groups()[0]["kind"] == "assertion");
      CHECK(basename(found.groups()[0]["file"].get<std::string>()) == "cpp_cache.cpp");
    }
  }
}

TEST_CASE("atomic hooks perform every operation correctly under contention, gcc and clang builds",
          "[instrumented]") {
  std::vector<std::pair<std::string, std::string>> builds = {
      {"gcc via ctrlsched_instrument", binary("program_inst", "atomics")}};
  if (auto clang_build = find_binary("clang_inst", "atomics")) builds.push_back({"clang via ctrlsched-cc", *clang_build});
  REQUIRE(builds.size() == 2);  // clang is a declared dependency: both compilers' hook forms
  for (const auto& [label, path] : builds) {
    INFO(label);
    const Process native = run({path});
    INFO(native.describe());
    CHECK(native.exit_code == 0);  // runs natively on the inert hook library
    for (const char* strategy : {"pct", "random"}) {
      TempDir dir;
      const SeedsRun r = run_seeds(dir, path, {"--seeds", "300", "-j2", "--strategy", strategy});
      INFO(strategy << ": " << r.describe());
      REQUIRE(r.json.is_object());
      CHECK(r.failures() == 0);
      // Every atomic is a scheduling point: runs must have switched threads between them.
      std::uint64_t most_decisions = 0;
      for (const Json& run : r.runs()) most_decisions = std::max(most_decisions, run["decisions"].get<std::uint64_t>());
      CHECK(most_decisions > 10);
    }
  }
}

TEST_CASE("every TSan-ABI hook gcc 12 and clang 14 can emit is defined by the shim and the inert library",
          "[instrumented]") {
  std::vector<std::string> names = {"__tsan_init", "__tsan_func_entry", "__tsan_func_exit",
                                    "__tsan_read_range", "__tsan_write_range", "__tsan_vptr_update",
                                    "__tsan_vptr_read", "__tsan_atomic_thread_fence",
                                    "__tsan_atomic_signal_fence"};
  for (const char* size : {"1", "2", "4", "8", "16"}) {
    for (const char* access : {"read", "write", "read_write", "unaligned_read", "unaligned_write",
                               "unaligned_read_write"})
      names.push_back(std::string("__tsan_") + access + size);
  }
  for (const char* width : {"8", "16", "32", "64", "128"}) {
    for (const char* op : {"load", "store", "exchange", "fetch_add", "fetch_sub", "fetch_and", "fetch_or",
                           "fetch_xor", "fetch_nand", "compare_exchange_strong", "compare_exchange_weak",
                           "compare_exchange_val"})
      names.push_back(std::string("__tsan_atomic") + width + "_" + op);
  }
  const fs::path lib_dir = fs::path(ctrlsched_path()).parent_path().parent_path() / "lib";
  for (const char* library : {"libctrlsched_hooks.so", "libctrlsched_shim.so"}) {
    const fs::path path = lib_dir / library;
    INFO(path.string());
    // Loading the shim without a run record leaves it inert: nothing in this process changes.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(handle != nullptr);
    for (const std::string& name : names) {
      INFO(name);
      CHECK(dlsym(handle, name.c_str()) != nullptr);
    }
  }
}

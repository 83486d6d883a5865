// Outcomes other than "pass" and "assertion", and programs that do awkward things: a thread that
// exits holding a mutex (deadlock naming the exited holder), fork+exec of a threaded child (pass,
// no hang), a read() blocked on a pipe (released by the watchdog: pass), a yield livelock (hang
// at --max-steps), a busy loop without scheduling points (timeout), exit() from a worker (exit),
// a SIGSEGV in a worker (signal naming the thread).
#include <catch2/catch.hpp>

#include <algorithm>

#include <regex>
#include <set>

#include "e2e.h"

using namespace e2e;

namespace {

// Runs `name` for `seeds` seeds under each strategy and returns the reports (exit code 0 or 1).
std::vector<SeedsRun> run_both(const TempDir& dir, const std::string& name, std::uint64_t seeds,
                               std::vector<std::string> extra = {}, double timeout = 240) {
  std::vector<SeedsRun> reports;
  for (const std::string strategy : {"pct", "random"}) {
    std::vector<std::string> options = {"--seeds", std::to_string(seeds), "-j2", "--strategy", strategy};
    options.insert(options.end(), extra.begin(), extra.end());
    reports.push_back(run_seeds(dir, program(name), options, {}, timeout));
  }
  return reports;
}

// Every seed failed with `kind`.
void check_all_fail(const SeedsRun& r, const std::string& kind, std::uint64_t seeds) {
  INFO(r.describe());
  REQUIRE_FALSE(r.process.timed_out);
  REQUIRE(r.json.is_object());
  CHECK(r.process.exit_code == 1);
  CHECK(r.failures() == seeds);
  CHECK(r.json["outcomes"][kind] == seeds);
  for (const Json& run : r.runs()) {
    INFO("seed " << run["seed"] << ": " << run.dump());
    CHECK(run["kind"] == kind);
  }
}

}  // namespace

TEST_CASE("a thread that exits holding a mutex another thread needs: deadlock naming the exited holder",
          "[outcomes]") {
  TempDir dir;
  for (const SeedsRun& r : run_both(dir, "exit_holding_mutex", 20)) {
    check_all_fail(r, "deadlock", 20);
    REQUIRE_FALSE(r.groups().empty());
    const std::string message = r.groups()[0]["message"].get<std::string>();
    INFO("message: " << message);
    CHECK(contains(message, "T0"));
    CHECK(contains(message, "held by T1"));
    // The holder is gone: the report must say so, or the user looks for a live T1.
    CHECK(std::regex_search(message, std::regex(R"(T1[^;]*exited)")));
  }
}

TEST_CASE("fork of a child that uses pthreads and execs /bin/true passes without hanging", "[outcomes]") {
  TempDir dir;
  for (const SeedsRun& r : run_both(dir, "fork_exec", 50, {"--timeout", "20"})) {
    INFO(r.describe());
    REQUIRE_FALSE(r.process.timed_out);
    REQUIRE(r.json.is_object());
    CHECK(r.process.exit_code == 0);
    CHECK(r.failures() == 0);
    CHECK(r.json["outcomes"]["timeout"] == 0);
  }
}

TEST_CASE("a thread blocked in read() on a pipe that another thread writes later: the run passes",
          "[outcomes]") {
  TempDir dir;
  // The watchdog needs ~100 ms of no progress per release, so few seeds.
  for (const SeedsRun& r : run_both(dir, "pipe_block", 8, {"--timeout", "20"})) {
    INFO(r.describe());
    REQUIRE_FALSE(r.process.timed_out);
    REQUIRE(r.json.is_object());
    CHECK(r.process.exit_code == 0);
    CHECK(r.failures() == 0);
    // If a run carries a note, it names the released reader (T1) and says it blocked outside the model.
    for (const Json& run : r.runs()) {
      if (!run.contains("note")) continue;
      INFO("note: " << run["note"]);
      CHECK(contains(run["note"].get<std::string>(), "T1"));
      CHECK(contains(run["note"].get<std::string>(), "outside the model"));
    }
  }
}

TEST_CASE("an endless sched_yield loop is a hang at --max-steps", "[outcomes]") {
  TempDir dir;
  for (const SeedsRun& r : run_both(dir, "yield_forever", 5, {"--max-steps", "10000"})) {
    check_all_fail(r, "hang", 5);
    CHECK(r.json["summary"]["max_steps"] == 10000);
    REQUIRE_FALSE(r.groups().empty());
    CHECK(contains(r.groups()[0]["message"].get<std::string>(), "10000"));
  }
}

TEST_CASE("a busy loop without any scheduling point is a timeout with --timeout 1", "[outcomes]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, program("busy_forever"), {"--seeds", "2", "-j2", "--timeout", "1"}, {}, 60);
  check_all_fail(r, "timeout", 2);
  REQUIRE_FALSE(r.groups().empty());
  CHECK(contains(r.groups()[0]["message"].get<std::string>(), "timeout"));
  // docs/cli.md: a timed-out run has no hash in its handle (a wall-clock kill is not reproducible).
  for (const Json& run : r.runs()) CHECK_FALSE(contains(run["handle"].get<std::string>(), "@"));
}

TEST_CASE("exit(3) from a worker thread is an exit outcome with status 3", "[outcomes]") {
  TempDir dir;
  for (const SeedsRun& r : run_both(dir, "exit_from_thread", 10)) {
    check_all_fail(r, "exit", 10);
    REQUIRE_FALSE(r.groups().empty());
    CHECK(contains(r.groups()[0]["message"].get<std::string>(), "exit status 3"));
  }
}

TEST_CASE("a SIGSEGV in a worker is a signal outcome naming the thread and the line", "[outcomes]") {
  TempDir dir;
  const int line = line_containing(programs_source_dir() / "segv_in_worker.c", "SEGV_LINE");
  REQUIRE(line > 0);
  for (const SeedsRun& r : run_both(dir, "segv_in_worker", 10)) {
    check_all_fail(r, "signal", 10);
    REQUIRE_FALSE(r.groups().empty());
    const Json& g = r.groups()[0];
    INFO("group " << g.dump());
    CHECK(contains(g["message"].get<std::string>(), "SIGSEGV"));
    CHECK(contains(g["message"].get<std::string>(), "in T2"));
    CHECK(g["file"].is_string());
    if (g["file"].is_string()) CHECK(basename(g["file"].get<std::string>()) == "segv_in_worker.c");
    CHECK(g["line"] == line);
    CHECK(g["function"] == "crasher");
    // The stack starts at the faulting frame, at its own line: not at the signal trampoline, and
    // not one line off (the faulting pc is no return address to step back from).
    const Json& first = r.run_of(g["first_seed"].get<std::uint64_t>());
    REQUIRE(first["failure"]["stack"].is_array());
    REQUIRE_FALSE(first["failure"]["stack"].empty());
    CHECK(first["failure"]["stack"][0].get<std::string>() ==
          "crasher (segv_in_worker.c:" + std::to_string(line) + ")");
    // ... and it replays.
    const Process p = run_replay(dir, {first["handle"].get<std::string>()}, program("segv_in_worker"));
    INFO(p.describe());
    CHECK(p.exit_code == 1);
    CHECK(replay_fail_message(p.out) == first["failure"]["message"].get<std::string>());
  }
}

TEST_CASE("an assertion inside an inlined helper: its first frame names the helper at its line", "[outcomes]") {
  TempDir dir;
  const int line = line_containing(programs_source_dir() / "inlined_crash.c", "INLINED_LINE");
  REQUIRE(line > 0);
  for (const SeedsRun& r : run_both(dir, "inlined_crash", 10)) {
    check_all_fail(r, "assertion", 10);
    REQUIRE_FALSE(r.groups().empty());
    const Json& g = r.groups()[0];
    INFO("group " << g.dump());
    CHECK(g["line"] == line);
    CHECK(g["function"] == "slot_value");
    // The ELF symbol at the call of __assert_fail is `reader`, the function the helper was
    // inlined into; the line is the helper's, and so is the name in the stack.
    const Json& first = r.run_of(g["first_seed"].get<std::uint64_t>());
    REQUIRE_FALSE(first["failure"]["stack"].empty());
    CHECK(first["failure"]["stack"][0].get<std::string>() == "slot_value (inlined_crash.c:" + std::to_string(line) + ")");
  }
}

TEST_CASE("a failure in main: the stack's last frame, _start, has no source line", "[outcomes]") {
  // _start has no debug information; libdw answered the lookup with the line table's last row
  // before it (main's code ends just below it in this binary): "_start (std_thread.h:142)".
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("corpus", "price_cache"), {"--seeds", "20", "-j2"});
  INFO(r.describe());
  const auto failing = std::find_if(r.runs().begin(), r.runs().end(),
                                    [](const Json& run) { return run["failure"].is_object(); });
  REQUIRE(failing != r.runs().end());
  const Json& stack = (*failing)["failure"]["stack"];
  INFO("stack " << stack.dump());
  REQUIRE(stack.is_array());
  REQUIRE_FALSE(stack.empty());
  CHECK(contains(stack[0].get<std::string>(), "main (price_cache.cpp:"));
  CHECK(stack.back().get<std::string>() == "_start (price_cache)");
}

TEST_CASE("main returning while a worker waits forever passes: returning from main ends the process",
          "[outcomes]") {
  TempDir dir;
  for (const SeedsRun& r : run_both(dir, "main_returns_early", 50, {"--timeout", "20"})) {
    INFO(r.describe());
    REQUIRE(r.json.is_object());
    CHECK(r.process.exit_code == 0);
    CHECK(r.failures() == 0);
  }
}

TEST_CASE("main ending with pthread_exit while workers still run passes once the last thread exits",
          "[outcomes]") {
  TempDir dir;
  // --stop-after: a broken run costs the whole --timeout, so stop at the first one.
  for (const SeedsRun& r : run_both(dir, "main_pthread_exit", 50, {"--timeout", "5", "--stop-after", "1"})) {
    INFO(r.describe());
    REQUIRE_FALSE(r.process.timed_out);
    REQUIRE(r.json.is_object());
    CHECK(r.process.exit_code == 0);
    CHECK(r.failures() == 0);
    if (!r.groups().empty()) FAIL_CHECK("first failure: " << r.groups()[0]["message"].get<std::string>());
  }
}

TEST_CASE("abort() in a worker is a SIGABRT located at the program's abort() call, one group per call site",
          "[outcomes]") {
  TempDir dir;
  const fs::path source = programs_source_dir() / "abort_sites.c";
  const int left = line_containing(source, "LEFT_ABORT");
  const int right = line_containing(source, "RIGHT_ABORT");
  REQUIRE(left > 0);
  REQUIRE(right > 0);
  const SeedsRun r = run_seeds(dir, program("abort_sites"), {"--seeds", "60", "-j2", "--strategy", "random"});
  check_all_fail(r, "signal", 60);
  std::set<int> lines;
  for (const Json& g : r.groups()) {
    INFO("group " << g.dump());
    CHECK(contains(g["message"].get<std::string>(), "SIGABRT"));
    // Where the program failed is its abort() call, not libc's raise()/pthread_kill().
    REQUIRE(g["file"].is_string());
    CHECK(basename(g["file"].get<std::string>()) == "abort_sites.c");
    CHECK((g["line"] == left || g["line"] == right));
    if (g["line"].is_number()) lines.insert(g["line"].get<int>());
  }
  // Both workers won the race in some seeds (random strategy): the two call sites are two groups.
  std::set<int> winners;
  for (const Json& run : r.runs()) {
    const std::string message = run["failure"]["message"].get<std::string>();
    winners.insert(contains(message, "in T1") ? 1 : contains(message, "in T2") ? 2 : 0);
  }
  CHECK(winners == std::set<int>{1, 2});
  CHECK(r.groups().size() == 2);
  CHECK(lines.size() == 2);
  // The failure's stack shows the way from the worker to abort().
  const Json& first = r.runs()[0];
  INFO("stack of seed 0: " << first["failure"]["stack"].dump());
  bool mentions_worker = false;
  for (const Json& frame : first["failure"]["stack"]) mentions_worker |= contains(frame.get<std::string>(), "abort_sites.c");
  CHECK(mentions_worker);
}

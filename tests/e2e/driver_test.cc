// The command's own contracts, end to end: the JSON report has the documented shape
// (docs/json-schema.md), a seed's run does not depend on which other seeds ran (--seed-start),
// --stop-after reports exactly the seeds up to the N-th failure whatever -j is, --quiet prints
// nothing when all pass, test arguments reach the test, and an interrupted ctrlsched takes its
// test processes with it (docs/exit-codes.md).
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "e2e.h"

using namespace e2e;

namespace {

using Ordered = nlohmann::ordered_json;

std::vector<std::string> keys_of(const Ordered& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

bool null_or(const Ordered& v, bool (Ordered::*is)() const) { return v.is_null() || (v.*is)(); }

}  // namespace

TEST_CASE("the JSON report has the documented keys, order and types", "[driver]") {
  TempDir dir;
  // pct: the test checks its depth and k fields (the portfolio's are in samplers_test.cc).
  const SeedsRun r = run_seeds(dir, example("abba_deadlock"), {"--seeds", "60", "-j2", "--strategy", "pct"}, {});
  INFO(r.describe());
  REQUIRE(r.process.exit_code == 1);
  std::ifstream in(r.report);
  REQUIRE(in);
  const Ordered report = Ordered::parse(in);
  CHECK(keys_of(report) == std::vector<std::string>{"schema", "summary", "outcomes", "groups", "runs"});
  CHECK(report["schema"] == "ctrlsched-run/1");

  const Ordered& s = report["summary"];
  CHECK(keys_of(s) == std::vector<std::string>{"seeds", "seeds_requested", "stopped_early", "interrupted", "failures", "elapsed_s",
                                               "strategy", "depth", "pct_steps", "pct_steps_calibrated",
                                               "preemption_bound", "max_steps", "points", "spurious_wakeups",
                                               "seed_start", "target", "args"});
  CHECK(s["seeds"] == 60);
  CHECK(s["seeds_requested"] == 60);
  CHECK(s["stopped_early"] == false);
  CHECK(s["interrupted"] == false);
  CHECK(s["elapsed_s"].is_number());
  CHECK(s["strategy"] == "pct");
  CHECK(s["depth"] == 3);
  CHECK(s["pct_steps"].is_number_integer());
  CHECK(s["pct_steps_calibrated"] == true);
  CHECK(s["preemption_bound"].is_null());
  CHECK(s["max_steps"] == 1000000);
  CHECK(s["points"] == "auto");
  CHECK(s["spurious_wakeups"] == false);
  CHECK(s["seed_start"] == 0);
  CHECK(s["target"] == example("abba_deadlock"));
  CHECK(s["args"] == Ordered::array());

  const Ordered& o = report["outcomes"];
  CHECK(keys_of(o) == std::vector<std::string>{"pass", "assertion", "signal", "exit", "deadlock", "hang", "timeout",
                                               "diverged", "error", "unfinished"});
  std::uint64_t total = 0;
  for (const auto& [k, v] : o.items()) total += v.get<std::uint64_t>();
  CHECK(total == 60);
  CHECK(s["failures"].get<std::uint64_t>() == 60 - o["pass"].get<std::uint64_t>());

  REQUIRE_FALSE(report["groups"].empty());
  std::uint64_t previous_first = 0;
  for (const Ordered& g : report["groups"]) {
    INFO(g.dump());
    CHECK(keys_of(g) == std::vector<std::string>{"kind", "message", "file", "line", "function", "signature", "count",
                                                 "first_seed", "replay", "output_tail"});
    CHECK(g["kind"] == "deadlock");
    CHECK(null_or(g["file"], &Ordered::is_string));
    CHECK(null_or(g["line"], &Ordered::is_number_integer));
    CHECK(g["signature"].get<std::string>().rfind("deadlock|", 0) == 0);
    CHECK(g["first_seed"].get<std::uint64_t>() >= previous_first);  // ordered by first seed
    previous_first = g["first_seed"].get<std::uint64_t>();
  }

  REQUIRE(report["runs"].size() == 60);
  std::uint64_t seed = 0;
  for (const Ordered& run : report["runs"]) {
    INFO(run.dump());
    CHECK(run["seed"] == seed++);
    std::vector<std::string> expected = {"seed", "outcome", "kind"};
    if (run["outcome"] == "fail") expected.push_back("failure");
    for (const char* k : {"handle", "replay", "schedule_hash", "steps", "decisions", "preemptions", "threads"})
      expected.push_back(k);
    if (run.contains("note")) expected.push_back("note");
    CHECK(keys_of(run) == expected);
    CHECK(run["schedule_hash"].get<std::string>().size() == 16);
    CHECK(contains(run["handle"].get<std::string>(), "@" + run["schedule_hash"].get<std::string>()));
    CHECK(run["threads"] == 3);
    if (run["outcome"] == "fail") {
      const Ordered& f = run["failure"];
      CHECK(keys_of(f) == std::vector<std::string>{"kind", "message", "file", "line", "function", "stack", "details"});
      CHECK(f["kind"] == run["kind"]);
      // A deadlock lists every blocked thread with what it waits for.
      std::size_t waits = 0;
      for (const Ordered& d : f["details"]) waits += d.get<std::string>().rfind("T", 0) == 0;
      CHECK(waits == 3);
    } else {
      CHECK(run["kind"] == "pass");
    }
  }
}

TEST_CASE("a seed's run does not depend on the other seeds: --seed-start", "[driver]") {
  TempDir dir;
  const std::string target = example("atomicity_multi_var");
  const SeedsRun all = run_seeds(dir, target, {"--seeds", "60", "-j2", "--no-save"});
  const SeedsRun tail = run_seeds(dir, target, {"--seeds", "20", "--seed-start", "40", "-j1", "--no-save"});
  INFO(all.describe());
  INFO(tail.describe());
  REQUIRE(all.json.is_object());
  REQUIRE(tail.json.is_object());
  CHECK(tail.json["summary"]["seed_start"] == 40);
  REQUIRE(tail.runs().size() == 20);
  for (std::uint64_t seed = 40; seed < 60; ++seed) {
    INFO("seed " << seed);
    CHECK(tail.run_of(seed) == all.run_of(seed));
  }
}

TEST_CASE("--stop-after N reports exactly the seeds up to the N-th failure, whatever -j is", "[driver]") {
  TempDir dir;
  const std::string target = example("check_then_act");
  const SeedsRun full = run_seeds(dir, target, {"--seeds", "200", "-j2", "--no-save"});
  INFO(full.describe());
  REQUIRE(full.json.is_object());
  std::vector<std::uint64_t> failing;
  for (const Json& run : full.runs())
    if (run["outcome"] == "fail") failing.push_back(run["seed"].get<std::uint64_t>());
  REQUIRE(failing.size() >= 3);
  for (const std::string jobs : {"1", "2"}) {
    const SeedsRun r = run_seeds(dir, target, {"--seeds", "200", "-j", jobs, "--stop-after", "3", "--no-save"});
    INFO(r.describe());
    REQUIRE(r.json.is_object());
    CHECK(r.process.exit_code == 1);
    CHECK(r.failures() == 3);
    CHECK(r.json["summary"]["seeds"] == failing[2] + 1);
    CHECK(r.json["summary"]["seeds_requested"] == 200);
    CHECK(r.json["summary"]["stopped_early"] == true);
    REQUIRE(r.runs().size() == failing[2] + 1);
    for (const Json& run : r.runs()) CHECK(run == full.run_of(run["seed"].get<std::uint64_t>()));
  }
}

TEST_CASE("--quiet prints nothing when every seed passes, and only the failures otherwise", "[driver]") {
  TempDir dir;
  Command c;
  c.cwd = dir.path();
  c.argv = {ctrlsched_path(), "--seeds", "30", "-j2", "--quiet", example("correct_locks")};
  const Process pass = run(c);
  INFO(pass.describe());
  CHECK(pass.exit_code == 0);
  CHECK(pass.out.empty());
  CHECK(pass.err.empty());
  c.argv = {ctrlsched_path(), "--seeds", "30", "-j2", "--quiet", "--no-save", example("check_then_act")};
  const Process fail = run(c);
  INFO(fail.describe());
  CHECK(fail.exit_code == 1);
  CHECK(contains(fail.out, "FAIL  "));
  CHECK_FALSE(contains(fail.out, "PASS  "));
}

TEST_CASE("the test's arguments reach it and are reported", "[driver]") {
  TempDir dir;
  const fs::path notes = dir / "notes with a space.txt";
  const SeedsRun r = run_seeds(dir, program("timed_lock"), {"--seeds", "20", "-j2"}, {notes.string()});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  CHECK(r.process.exit_code == 0);
  CHECK(r.json["summary"]["args"] == Json::array({notes.string()}));
  CHECK(fs::exists(notes));  // the program wrote to the file its argument named
}

TEST_CASE("SIGTERM to ctrlsched kills its test processes, then ctrlsched dies of SIGTERM", "[driver]") {
  // With the fork server (the default) the signal may land while a server starts, while it
  // forks a run or while runs are in flight; without it, while exec'd runs are in flight.
  const bool fork_server = GENERATE(true, false);
  INFO((fork_server ? "with the fork server" : "with --no-fork-server"));
  TempDir dir;
  // A private copy of a program that never ends, so only our own test processes are looked for.
  const fs::path spinner = dir / "spinner_for_sigterm";
  fs::copy_file(program("busy_forever"), spinner);
  Command c;
  c.cwd = dir.path();
  c.argv = {ctrlsched_path(), "--seeds", "4", "-j2", "--strategy", "random", "--timeout", "60", "--no-save"};
  if (!fork_server) c.argv.push_back("--no-fork-server");
  c.argv.push_back(spinner.string());
  // Bounded: a driver that hangs after the signal is a failure (timed_out), not a stuck suite.
  c.timeout_seconds = 30;
  Process p;
  std::thread runner([&] { p = run(c); });
  // Joined on every way out: an exception below must fail the test, not terminate the suite.
  struct JoinAtExit {
    std::thread& thread;
    ~JoinAtExit() {
      if (thread.joinable()) thread.join();
    }
  } join_at_exit{runner};
  // Wait until the test processes run, then interrupt ctrlsched (only it: by its pid).
  pid_t driver = 0;
  for (int i = 0; i < 500 && processes_running(spinner).size() < 2; ++i) ::usleep(10000);
  const auto before = processes_running(spinner);
  CHECK(before.size() >= 1);
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ec;
    if (fs::read_symlink(entry.path() / "exe", ec) != fs::path(ctrlsched_path()) || ec) continue;
    // Not a child the driver forked and has not exec'd yet (a run or a fork server): it has the
    // same executable and working directory, but only the driver is this process's child.
    std::ifstream stat(entry.path() / "stat");
    const std::string line((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    std::istringstream fields(line.substr(line.rfind(')') + 1));
    std::string state;
    pid_t parent = 0;
    fields >> state >> parent;
    if (parent != ::getpid()) continue;
    const std::string cwd = fs::read_symlink(entry.path() / "cwd", ec).string();
    if (!ec && cwd == dir.path().string()) driver = static_cast<pid_t>(std::stol(name));
  }
  CHECK(driver > 0);  // not REQUIRE: the runner thread must be joined either way
  if (driver > 0) ::kill(driver, SIGTERM);
  runner.join();
  INFO(p.describe());
  CHECK_FALSE(p.timed_out);
  CHECK(p.term_signal == SIGTERM);  // exit status 143 in a shell (docs/exit-codes.md)
  // Its test processes (fork servers included) are gone (give the kernel a moment to reap them).
  std::vector<pid_t> left = processes_running(spinner);
  for (int i = 0; i < 100 && !left.empty(); ++i) {
    ::usleep(20000);
    left = processes_running(spinner);
  }
  CHECK(left.empty());
  for (pid_t pid : left) ::kill(pid, SIGKILL);  // never leave a spinner behind
}

// Ctrl-C during a seeds run (issue 14 §3): the first SIGINT stops starting seeds, kills the runs
// in flight, prints the summary of the seeds that finished (marked interrupted), writes a valid
// JSON report (stopped_early, interrupted) and the finished failures' schedules, then ctrlsched
// dies of SIGINT. A second signal kills at once; SIGKILL of the driver leaves no test process and
// never an empty or half-written report.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "e2e.h"

using namespace e2e;

namespace {

constexpr int kFinishing = 6;  // finish_then_spin: the first 6 runs end, later ones spin

// The parent process id of `pid` (0 if unknown): field 4 of /proc/PID/stat, after the ")".
pid_t parent_of(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(stat.substr(close + 1));
  std::string state;
  long parent = 0;
  rest >> state >> parent;
  return static_cast<pid_t>(parent);
}

// The ctrlsched process working in `dir` (only ours: by its working directory). Only a child of
// this test process: a child the driver has forked but not yet exec'd (a test run, a fork server)
// has the driver's executable and working directory too, and a signal meant for the driver must
// not go to it.
pid_t driver_in(const TempDir& dir) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (parent_of(name) != ::getpid()) continue;
    std::error_code ec;
    if (fs::read_symlink(entry.path() / "exe", ec) != fs::path(ctrlsched_path()) || ec) continue;
    const std::string cwd = fs::read_symlink(entry.path() / "cwd", ec).string();
    if (!ec && cwd == dir.path().string()) return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

std::size_t runs_started(const fs::path& counter) {
  std::error_code ec;
  const auto size = fs::file_size(counter, ec);
  return ec ? 0 : static_cast<std::size_t>(size / 2);
}

// Test processes are gone (the kernel may need a moment to reap them); kills leftovers.
std::vector<pid_t> left_running(const fs::path& program) {
  std::vector<pid_t> left = processes_running(program);
  for (int i = 0; i < 100 && !left.empty(); ++i) {
    ::usleep(20000);
    left = processes_running(program);
  }
  for (pid_t pid : left) ::kill(pid, SIGKILL);  // never leave a spinner behind
  return left;
}

// Starts `ctrlsched --seeds 50 -j2 ... finish_then_spin <counter> 6` in `dir` on a thread, waits
// until the 6 finishing runs ended and two spinning ones are in flight, and returns the driver.
struct Interruptible {
  TempDir& dir;
  fs::path program = dir / "finish_then_spin_copy";
  fs::path counter = dir / "runs.txt";
  fs::path report = dir / "report.json";
  fs::path schedules = dir / "schedules";
  Process process;
  std::thread runner;

  explicit Interruptible(TempDir& d) : dir(d) {
    fs::copy_file(e2e::program("finish_then_spin"), program);
    Command c;
    c.cwd = dir.path();
    c.argv = {ctrlsched_path(), "--seeds",          "50",    "-j2",        "--strategy",     "random",
              "--timeout",      "120",              "--json", report.string(), "--save-schedules", schedules.string(),
              program.string(), counter.string(),   std::to_string(kFinishing)};
    c.timeout_seconds = 120;
    runner = std::thread([this, c] { process = run(c); });
  }
  ~Interruptible() {
    if (runner.joinable()) runner.join();
  }

  pid_t wait_until_spinning() {
    for (int i = 0; i < 1000 && (runs_started(counter) < kFinishing + 2 || processes_running(program).size() < 2); ++i)
      ::usleep(10000);
    return driver_in(dir);
  }
  void join() { runner.join(); }
};

}  // namespace

TEST_CASE("SIGINT during --seeds: partial summary, valid JSON, saved schedules, death by SIGINT", "[interrupt]") {
  TempDir dir;
  Interruptible run(dir);
  const pid_t driver = run.wait_until_spinning();
  REQUIRE(driver > 0);
  CHECK(runs_started(run.counter) >= kFinishing + 2);
  ::kill(driver, SIGINT);
  run.join();
  const Process& p = run.process;
  INFO(p.describe());
  CHECK_FALSE(p.timed_out);
  CHECK(p.term_signal == SIGINT);  // exit status 130 in a shell (docs/exit-codes.md)
  // The summary of the seeds that finished, marked interrupted, with their failures.
  CHECK(contains(p.out, "ctrlsched: " + std::to_string(kFinishing) + " of 50 seeds finished (INTERRUPTED by SIGINT)"));
  CHECK(contains(p.out, "FAIL  3 seeds"));
  CHECK(contains(p.out, "assertion `run % 2 == 1` failed"));
  // A complete JSON report of exactly those seeds.
  std::ifstream in(run.report);
  REQUIRE(in);
  const Json json = Json::parse(in);
  const Json& summary = json.at("summary");
  CHECK(summary.at("interrupted") == true);
  CHECK(summary.at("stopped_early") == true);
  CHECK(summary.at("seeds") == kFinishing);
  CHECK(summary.at("seeds_requested") == 50);
  CHECK(summary.at("failures") == 3);
  CHECK(json.at("runs").size() == static_cast<std::size_t>(kFinishing));
  // The failures' schedules are saved, and each replays its failure... as far as the program's
  // counter lets it: the point here is that they were kept and are valid files.
  std::size_t saved = 0;
  for (const Json& r : json.at("runs")) {
    if (r.at("outcome") == "pass") continue;
    const fs::path file = run.schedules / ("seed-" + std::to_string(r.at("seed").get<std::uint64_t>()) + "-" +
                                           r.at("schedule_hash").get<std::string>() + ".sched");
    CHECK(fs::exists(file));
    saved += read_schedule_file(file).has_value();
  }
  CHECK(saved == 3);
  // No temporary file is left beside the report, and no test process runs on.
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    CHECK_FALSE(contains(entry.path().filename().string(), ".tmp."));
  }
  CHECK(left_running(run.program).empty());
}

TEST_CASE("a second SIGINT kills ctrlsched at once: no test process, no half-written report", "[interrupt]") {
  TempDir dir;
  Interruptible run(dir);
  const pid_t driver = run.wait_until_spinning();
  REQUIRE(driver > 0);
  ::kill(driver, SIGINT);
  ::kill(driver, SIGINT);
  run.join();
  INFO(run.process.describe());
  CHECK_FALSE(run.process.timed_out);
  CHECK(run.process.term_signal == SIGINT);
  // Whichever signal won the race, the report is absent or a complete JSON document.
  if (fs::exists(run.report)) {
    std::ifstream in(run.report);
    CHECK_NOTHROW(Json::parse(in));
  }
  CHECK(left_running(run.program).empty());
}

TEST_CASE("SIGKILL of ctrlsched leaves no test process and the previous report untouched", "[interrupt]") {
  TempDir dir;
  const std::string previous = "{\"previous\": \"complete report\"}\n";
  {
    std::ofstream out(dir / "report.json");
    out << previous;
  }
  Interruptible run(dir);
  const pid_t driver = run.wait_until_spinning();
  REQUIRE(driver > 0);
  ::kill(driver, SIGKILL);
  run.join();
  INFO(run.process.describe());
  CHECK(run.process.term_signal == SIGKILL);
  // The test processes die with their driver (PR_SET_PDEATHSIG), even though they run in their
  // own process groups.
  CHECK(left_running(run.program).empty());
  CHECK(read_file(run.report) == previous);
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    CHECK_FALSE(contains(entry.path().filename().string(), ".tmp."));
  }
}

TEST_CASE("SIGTERM at any moment of a fork-served run: ctrlsched dies of it promptly, no test process left",
          "[interrupt][forkserver]") {
  // The signal lands at a different point each time: while the fork servers start (waiting for
  // their hello), while a server forks a run, or while served runs spin. Each wait of the driver
  // on a server must end in the stop (docs/fork-server.md, "Stopping").
  const int delay_ms = GENERATE(0, 15, 40, 80, 200);
  INFO("SIGTERM after " << delay_ms << " ms");
  TempDir dir;
  const fs::path spinner = dir / "busy_forever_copy";
  fs::copy_file(e2e::program("busy_forever"), spinner);
  Command c;
  c.cwd = dir.path();
  c.argv = {ctrlsched_path(), "--seeds", "8", "-j2", "--strategy", "random", "--timeout", "60", "--no-save",
            spinner.string()};
  c.timeout_seconds = 30;  // bounded: a hang is a failure here
  Process p;
  std::thread runner([&] { p = run(c); });
  // Joined on every way out: an exception below must fail the test, not terminate the suite.
  struct JoinAtExit {
    std::thread& thread;
    ~JoinAtExit() {
      if (thread.joinable()) thread.join();
    }
  } join_at_exit{runner};
  pid_t driver = 0;
  for (int i = 0; i < 500 && driver == 0; ++i) {
    driver = driver_in(dir);
    if (driver == 0) ::usleep(2000);
  }
  CHECK(driver > 0);  // not REQUIRE: the runner thread must be joined either way
  ::usleep(static_cast<useconds_t>(delay_ms) * 1000);
  if (driver > 0) ::kill(driver, SIGTERM);
  runner.join();
  INFO(p.describe());
  CHECK_FALSE(p.timed_out);
  CHECK(p.term_signal == SIGTERM);  // shell status 143 (docs/exit-codes.md)
  CHECK(left_running(spinner).empty());
}

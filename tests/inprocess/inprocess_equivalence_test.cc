// Same strategy + seed => same decisions as the LD_PRELOAD shim. programs/equivalence.c is run
// under the real `ctrlsched replay --seed S --save-schedule F`; the body below is its line-by-line
// twin with ctrlsched primitives. The two decision logs must be identical for seeds 0..49 under
// pct and random (and so are the handles' schedule hashes).
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ctrlsched/ctrlsched.hpp"
#include "ctrlsched/schedule.h"

namespace {

void equivalence_body() {
  ctrlsched::mutex lock;
  ctrlsched::condition_variable done_cv;
  int counter = 0;
  int done = 0;
  auto worker = [&](long rounds) {
    for (long i = 0; i < rounds; ++i) {
      lock.lock();
      ++counter;
      lock.unlock();
      if (i == 0) ctrlsched::this_thread::yield();
    }
    lock.lock();
    ++done;
    done_cv.notify_one();
    lock.unlock();
  };
  ctrlsched::thread t[3];
  for (long i = 0; i < 3; ++i) t[i] = ctrlsched::thread(worker, i + 2);
  {
    std::unique_lock<ctrlsched::mutex> guard(lock);
    while (done < 2) done_cv.wait(guard);
  }
  for (auto& thread : t) thread.join();
  ctrlsched::check(counter == 9, "counter");
}

ctrlsched::Schedule shim_schedule(const std::string& options, std::uint64_t seed) {
  // Per process: ctest runs this binary and its ASan twin at the same time, in one directory.
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("inprocess_equivalence_schedule-" + std::to_string(::getpid()) + ".txt"))
                               .string();
  const std::string command = std::string(CTRLSCHED_BIN) + " replay --seed " + std::to_string(seed) + " " +
                              options + " --save-schedule " + file + " -- " + EQUIVALENCE_PROG +
                              " >/dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::string error;
  auto schedule = ctrlsched::parse_schedule(text.str(), &error);
  INFO(error);
  REQUIRE(schedule);
  std::remove(file.c_str());
  return *schedule;
}

// The decisions of one in-process run: the run is made to "fail" through the failure probe once
// the body has returned (the probe is also asked at every thread's end), which yields its
// schedule.
ctrlsched::FailedRun inprocess_run(ctrlsched::ExploreOptions options, std::uint64_t seed) {
  options.seeds = 1;
  options.seed_start = seed;
  options.honour_replay_env = false;
  bool body_returned = false;
  options.failure_probe = [&] {
    return body_returned ? std::optional<std::string>("end") : std::nullopt;
  };
  auto result = ctrlsched::explore(options, [&] {
    body_returned = false;
    equivalence_body();
    body_returned = true;
  });
  REQUIRE(result.first_failure);
  return *result.first_failure;
}

std::string tokens(const std::vector<ctrlsched::Decision>& decisions) {
  std::string text;
  for (auto d : decisions) text += ctrlsched::to_token(d) + " ";
  return text;
}

}  // namespace

TEST_CASE("pct: the same decisions as the shim for seeds 0..49", "[inprocess][equivalence]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    INFO("seed " << seed);
    const auto shim = shim_schedule("--strategy pct --depth 3 --pct-steps 60", seed);
    const auto run = inprocess_run({.strategy = ctrlsched::StrategyKind::Pct, .depth = 3, .pct_steps = 60}, seed);
    INFO("in-process steps " << run.steps);
    CHECK(tokens(run.decisions) == tokens(shim.decisions));
    CHECK(run.handle == shim.handle);
  }
}

TEST_CASE("random: the same decisions as the shim for seeds 0..49", "[inprocess][equivalence]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    INFO("seed " << seed);
    const auto shim = shim_schedule("--strategy random", seed);
    const auto run = inprocess_run({.strategy = ctrlsched::StrategyKind::Random}, seed);
    INFO("in-process steps " << run.steps);
    CHECK(tokens(run.decisions) == tokens(shim.decisions));
    CHECK(run.handle == shim.handle);
  }
}

TEST_CASE("random with a preemption bound: the same decisions as the shim", "[inprocess][equivalence]") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    INFO("seed " << seed);
    const auto shim = shim_schedule("--strategy random --preemption-bound 2", seed);
    const auto run = inprocess_run({.strategy = ctrlsched::StrategyKind::Random, .preemption_bound = 2}, seed);
    INFO("in-process steps " << run.steps);
    CHECK(tokens(run.decisions) == tokens(shim.decisions));
    CHECK(run.handle == shim.handle);
  }
}

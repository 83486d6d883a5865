// Replay integrity (issue 14 §0): for every program and example, a seed run, the replay of its
// handle and the replay of its saved schedule file give the same schedule hash. The handle replay
// runs with the saved schedules at hand, so it also verifies the seed's strategy decision by
// decision against the file. A run the watchdog released a thread in is not reproducible by
// nature (the released thread runs uncontrolled) and must say so in its report; a run killed by
// the wall-clock timeout neither; both are counted apart, never compared.
#include <catch2/catch.hpp>

#include <algorithm>

#include "e2e.h"

using namespace e2e;

namespace {

struct Tally {
  int handle_replays = 0;
  int file_replays = 0;
  int not_reproducible = 0;  // watchdog-released or timed out: reported, not compared
};

bool released_by_watchdog(const Json& run) {
  return run.contains("note") && contains(run["note"].get<std::string>(), "the watchdog released");
}

// Replays `run` through `how` and checks it took the recorded path.
void check_same_path(const TempDir& dir, const std::string& target, const Json& run,
                     const std::vector<std::string>& how) {
  const Process p = run_replay(dir, how, target, {}, 60);
  const std::string hash = run["schedule_hash"].get<std::string>();
  INFO("seed run: " << run.dump());
  INFO(p.describe());
  REQUIRE_FALSE(p.timed_out);
  CHECK(p.exit_code == (run["outcome"] == "fail" ? 1 : 0));  // pass and unfinished replay with 0
  CHECK(replay_schedule_hash(p.out) == hash);
  CHECK(contains(p.out, "replay matched schedule " + hash));
  CHECK_FALSE(contains(p.out, "DIVERGED"));
}

// A seeds run of `target`, then the replays of its failing seeds (handle and schedule file) and
// of its first passing seeds (handle).
void check_target(const TempDir& dir, const std::string& target, const std::vector<std::string>& options,
                  std::size_t max_failing, std::size_t max_passing, Tally& tally) {
  const SeedsRun r = run_seeds(dir, target, options, {}, 240);
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  std::size_t failing = 0, passing = 0;
  for (const Json& run : r.runs()) {
    if (released_by_watchdog(run) || run["kind"] == "timeout") {
      ++tally.not_reproducible;
      continue;
    }
    const bool failed = run["outcome"] != "pass";
    if (failed ? failing++ >= max_failing : passing++ >= max_passing) continue;
    check_same_path(dir, target, run, {run["handle"].get<std::string>(), "--save-schedules", r.schedules.string()});
    ++tally.handle_replays;
    if (!failed) continue;
    const fs::path file =
        r.schedules / ("seed-" + std::to_string(run["seed"].get<std::uint64_t>()) + "-" +
                       run["schedule_hash"].get<std::string>() + ".sched");
    if (failing > 20 || !fs::exists(file)) continue;  // only the first 20 failures are saved
    check_same_path(dir, target, run, {"--schedule", file.string()});
    ++tally.file_replays;
  }
}

}  // namespace

TEST_CASE("a program whose path depends on addresses replays exactly from handle and schedule file",
          "[replay-integrity]") {
  TempDir dir;
  Tally tally;
  for (const std::string kind : {"program", "program_inst"}) {
    const std::string target = binary(kind, "address_dependent");
    for (const std::string strategy : {"pct", "random"}) {
      check_target(dir, target, {"--seeds", "40", "-j2", "--strategy", strategy}, 6, 2, tally);
    }
  }
  // The bug is found (or the test checked nothing about schedule files).
  CHECK(tally.file_replays >= 8);
  CHECK(tally.not_reproducible == 0);
}

// What main's uninitialized locals would read is what ran on that stack before main: the shim's
// start-up among it. It must leave none of its own pointers there (a test calling through one
// would call into the scheduler, and would see other ones in a replay or a --localize run), with
// the fork server, without it, with collectors and in a replay (shim/runtime.cc).
TEST_CASE("the shim's start-up leaves no pointer of its own on the stack main starts on", "[replay-integrity]") {
  TempDir dir;
  const std::string target = binary("program", "stack_residue");
  for (const std::vector<std::string>& options :
       std::vector<std::vector<std::string>>{{}, {"--no-fork-server"}, {"--access-pairs"}, {"--strategy", "random"}}) {
    std::vector<std::string> seeds = {"--seeds", "4", "-j2"};
    seeds.insert(seeds.end(), options.begin(), options.end());
    const SeedsRun r = run_seeds(dir, target, seeds);
    INFO(r.describe());
    REQUIRE(r.json.is_object());
    CHECK(r.failures() == 0);
    CHECK(r.process.exit_code == 0);
  }
  const Process replay = run_replay(dir, {"--seed", "3"}, target);
  INFO(replay.describe());
  CHECK(replay.exit_code == 0);
  CHECK_FALSE(contains(replay.out + replay.err, "a pointer into the shim"));
}

TEST_CASE("every program and example: seed run, handle replay and schedule-file replay agree",
          "[replay-integrity]") {
  TempDir dir;
  Tally tally;
  struct Target {
    std::string kind, name;
  };
  std::vector<Target> targets;
  // Programs that cannot run (static_hello), need arguments to end (finish_then_spin) or only
  // ever time out (busy_forever) have nothing to replay.
  const std::vector<std::string> skipped = {"static_hello", "finish_then_spin", "busy_forever"};
  for (const std::string kind : {"program", "program_inst", "example", "example_inst"}) {
    for (const std::string& name : binary_names(kind)) {
      if (std::find(skipped.begin(), skipped.end(), name) == skipped.end()) targets.push_back({kind, name});
    }
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    INFO(t.kind << " " << t.name);
    // Both strategies over the whole list, alternately, to keep the cost down; a bounded step
    // count keeps livelocking programs short.
    const std::string strategy = i % 2 == 0 ? "pct" : "random";
    check_target(dir, binary(t.kind, t.name),
                 {"--seeds", "12", "-j2", "--strategy", strategy, "--max-steps", "20000", "--timeout", "20"}, 2, 1,
                 tally);
  }
  INFO("handle replays " << tally.handle_replays << ", file replays " << tally.file_replays
                         << ", not reproducible by nature " << tally.not_reproducible);
  // Most targets contribute (pipe_block's runs are all watchdog-released).
  CHECK(tally.handle_replays >= static_cast<int>(targets.size()) / 2);
  CHECK(tally.file_replays >= 10);
}

// --max-steps (issue 14): a run longer than the limit that is still making progress is
// `unfinished` (neither pass nor failure, with the advice to raise --max-steps), a livelock is a
// `hang`; a PCT calibration that reaches the limit says so; replay reproduces either verdict.
#include <catch2/catch.hpp>

#include "e2e.h"

using namespace e2e;

namespace {

// long_count with 20000 iterations per worker takes a few steps per iteration instrumented, far
// more than 20000 steps, and far fewer than 2,000,000.
const std::vector<std::string> kLongArgs = {"20000"};

}  // namespace

TEST_CASE("a long instrumented run that makes progress is unfinished at --max-steps, not a hang",
          "[outcomes][step_limit]") {
  TempDir dir;
  for (const std::string strategy : {"pct", "random"}) {
    const SeedsRun r = run_seeds(dir, binary("program_inst", "long_count"),
                                 {"--seeds", "3", "-j2", "--strategy", strategy, "--max-steps", "20000"}, kLongArgs);
    INFO(r.describe());
    REQUIRE(r.process.exit_code == 0);
    CHECK(r.failures() == 0);
    CHECK(r.json["outcomes"]["unfinished"] == 3);
    CHECK(r.json["outcomes"]["hang"] == 0);
    CHECK(r.groups().empty());
    for (const Json& run : r.runs()) {
      CHECK(run["outcome"] == "unfinished");
      CHECK(contains(run["failure"]["message"].get<std::string>(), "still making progress at --max-steps 20000"));
    }
    CHECK(contains(r.process.out, "UNFINISHED  3 seeds stopped at --max-steps 20000"));
    CHECK(contains(r.process.out, "--max-steps 200000"));
    if (strategy == "pct") {
      CHECK(r.json["summary"]["pct_calibration_reached_limit"] == true);
      CHECK(r.json["summary"]["pct_steps"] == 20000);
      CHECK(contains(r.process.err, "calibration run 0 was still making progress at --max-steps 20000"));
    }
  }
}

TEST_CASE("with a --max-steps above its length the long run passes", "[outcomes][step_limit]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("program_inst", "long_count"),
                               {"--seeds", "2", "-j2", "--max-steps", "2000000"}, kLongArgs);
  INFO(r.describe());
  REQUIRE(r.process.exit_code == 0);
  CHECK(r.json["outcomes"]["pass"] == 2);
  CHECK_FALSE(r.json["summary"].contains("pct_calibration_reached_limit"));
  CHECK_FALSE(contains(r.process.err, "calibration run"));
}

TEST_CASE("an instrumented poll of a flag nobody sets is a hang with no progress", "[outcomes][step_limit]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("program_inst", "wait_for_nobody"),
                               {"--seeds", "3", "-j2", "--strategy", "random", "--max-steps", "20000"});
  INFO(r.describe());
  REQUIRE(r.process.exit_code == 1);
  CHECK(r.json["outcomes"]["hang"] == 3);
  CHECK(r.json["outcomes"]["unfinished"] == 0);
  REQUIRE(r.groups().size() == 1);
  CHECK(contains(r.groups()[0]["message"].get<std::string>(), "made no progress in 5000 more steps (livelock)"));
}

TEST_CASE("an uninstrumented long run is a hang whose message says what ctrlsched could not see",
          "[outcomes][step_limit]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, program("long_count"),
                               {"--seeds", "2", "-j2", "--strategy", "random", "--max-steps", "20000"}, kLongArgs);
  INFO(r.describe());
  REQUIRE(r.process.exit_code == 1);
  CHECK(r.json["outcomes"]["hang"] == 2);
  REQUIRE_FALSE(r.groups().empty());  // grouped by the running thread's frame: one or two groups
  CHECK(contains(r.process.out, "uninstrumented: only new threads count as progress"));
}

TEST_CASE("an unfinished seed replays as unfinished with the same hash", "[outcomes][step_limit]") {
  TempDir dir;
  const std::string target = binary("program_inst", "long_count");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "1", "--strategy", "random", "--max-steps", "20000"}, kLongArgs);
  INFO(r.describe());
  REQUIRE(r.runs().size() == 1);
  const std::string handle = r.runs()[0]["handle"].get<std::string>();
  const Process replay = run_replay(dir, {handle}, target, kLongArgs);
  INFO(replay.describe());
  CHECK(replay.exit_code == 0);
  CHECK(contains(replay.out, "UNFINISHED  unfinished: still making progress at --max-steps 20000"));
  CHECK(contains(replay.out, r.runs()[0]["schedule_hash"].get<std::string>()));
}

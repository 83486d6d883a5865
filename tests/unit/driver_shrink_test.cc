// `ctrlsched shrink` without processes: its command line, its report and its default file name.
#include <catch2/catch.hpp>

#include "driver_test_support.h"
#include "exit_codes.h"
#include "modes/shrink.h"
#include "options/command_line.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::usage;

namespace {

ShrinkResult shrunk() {
  ShrinkResult r;
  r.status = ShrinkStatus::Shrunk;
  r.message = "assertion `x` failed (t.c:4 in main)";
  r.preemptions_before = 9;
  r.preemptions_after = 1;
  r.test_runs = 12;
  r.total_runs = 15;
  r.interleaving = {"T0 runs t.c:3 (main)", "-- preemption 1 of 1: T0 -> T1", "T1 runs t.c:9 (worker)"};
  r.seed = 17;
  return r;
}

}  // namespace

TEST_CASE("shrink takes a handle, -j and the replay options", "[shrink]") {
  const CommandLine cl = parse_command_line(std::vector<std::string>{"shrink", "-j", "3", "--save-schedule", "s.sched",
                                                                     "17:random@0123456789abcdef", "./t", "a"});
  CHECK(cl.mode == Mode::Shrink);
  CHECK(cl.handle == "17:random@0123456789abcdef");
  CHECK(cl.options.jobs == 3u);
  CHECK(cl.options.save_schedule == "s.sched");
  CHECK(cl.target == "./t");
  CHECK(cl.args == std::vector<std::string>{"a"});
  const CommandLine seed = parse_command_line(std::vector<std::string>{"shrink", "--seed", "4", "--strategy", "random", "./t"});
  CHECK(seed.options.seed == 4u);
  CHECK(*seed.options.strategy == StrategyKind::Random);
}

TEST_CASE("shrink rejects the options of other modes", "[shrink]") {
  CHECK(usage({"shrink", "--seeds", "3", "1:random", "./t"}) == "--seeds cannot be used with 'ctrlsched shrink'");
  CHECK(usage({"shrink", "--output", "x", "1:random", "./t"}) == "--output is only valid with 'ctrlsched trace'");
  CHECK(usage({"shrink", "1:random", "--strategy", "pct", "./t"}) ==
        "--strategy cannot be combined with a handle: it already fixes the run");
  CHECK(usage({"shrink", "./t"}) ==
        "shrink needs a handle, --seed S or --schedule FILE before the test program ('./t' is not a handle)");
  CHECK(usage({"replay", "-j", "2", "1:random", "./t"}) == "--jobs cannot be used with 'ctrlsched replay'");
}

TEST_CASE("the shrink report", "[shrink]") {
  CHECK(render_shrink_report(shrunk(), "shrunk-17.sched") ==
        "FAIL  assertion `x` failed (t.c:4 in main)\n"
        "preemptions: 9 -> 1 · 12 test runs (15 runs in all)\n"
        "interleaving (1 preemption):\n"
        "  T0 runs t.c:3 (main)\n"
        "  -- preemption 1 of 1: T0 -> T1\n"
        "  T1 runs t.c:9 (worker)\n"
        "wrote shrunk-17.sched\n");
  ShrinkResult passed;
  CHECK(render_shrink_report(passed, "") == "PASS  the run passed: nothing to shrink\n");
  ShrinkResult lost;
  lost.status = ShrinkStatus::NotReproduced;
  lost.problem = "the shrunk run did not fail the same way";
  CHECK(render_shrink_report(lost, "") == "NOT SHRUNK  the shrunk run did not fail the same way\n");
}

TEST_CASE("the default file of a shrunk schedule names the seed, else the hash", "[shrink]") {
  CHECK(default_shrunk_path(shrunk()) == "shrunk-17.sched");
  ShrinkResult no_seed;
  no_seed.original_hash = 0x9f3a2b1c0d4e5f67;
  CHECK(default_shrunk_path(no_seed) == "shrunk-9f3a2b1c0d4e5f67.sched");
}

// Failure groups, --stop-after's contiguous prefix, and the shell quoting of replay commands:
// the pieces that make the report independent of -j and pasteable into a shell.
#include <catch2/catch.hpp>

#include "report/grouping.h"
#include "report/shell_quote.h"
#include "runs/stop_after.h"

using namespace ctrlsched::driver;

namespace {

RunResult seed_result(std::uint64_t seed, OutcomeKind kind = OutcomeKind::Pass, std::string signature = "") {
  RunResult r;
  r.seed = seed;
  r.kind = kind;
  r.handle = std::to_string(seed) + ":random@0000000000000001";
  if (kind != OutcomeKind::Pass) {
    r.failure = FailureDetails{};
    r.failure->kind = kind;
    r.failure->signature = signature;
    r.failure->message = "m" + std::to_string(seed);
  }
  return r;
}

}  // namespace

TEST_CASE("shell quoting leaves safe words alone and single-quotes the rest") {
  CHECK(shell_quote("./bank_test") == "./bank_test");
  CHECK(shell_quote("17:pct:d3:k412@9f3a2b1c0d4e5f67") == "17:pct:d3:k412@9f3a2b1c0d4e5f67");
  CHECK(shell_quote("--size=3") == "--size=3");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$HOME") == "'$HOME'");
  CHECK(shell_quote("~/x") == "'~/x'");
  CHECK(shell_quote("a\nb") == "'a\nb'");
  const std::vector<std::string> words = {"ctrlsched", "replay", "1:random", "./t", "x y"};
  CHECK(shell_join(words) == "ctrlsched replay 1:random ./t 'x y'");
}

TEST_CASE("replay commands repeat the target and arguments as written") {
  CHECK(replay_command("5:random", TestCommand{"./t", {"--n", "3", "a'b"}}) ==
        "ctrlsched replay 5:random ./t --n 3 'a'\\''b'");
}

TEST_CASE("failures group by signature, ordered by first seed") {
  const std::vector<RunResult> runs = {seed_result(0),
                                       seed_result(1, OutcomeKind::Assertion, "A"),
                                       seed_result(2, OutcomeKind::Deadlock, "D"),
                                       seed_result(3, OutcomeKind::Assertion, "A"),
                                       seed_result(4),
                                       seed_result(5, OutcomeKind::Assertion, "B")};
  const auto groups = group_failures(runs, TestCommand{"./t", {}});
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].signature == "A");
  CHECK(groups[0].count == 2);
  CHECK(groups[0].first == 1);
  CHECK(groups[0].replay == "ctrlsched replay 1:random@0000000000000001 ./t");
  CHECK(groups[1].signature == "D");
  CHECK(groups[1].kind == OutcomeKind::Deadlock);
  CHECK(groups[2].signature == "B");
  const OutcomeCounts counts = count_outcomes(runs);
  CHECK(at(counts, OutcomeKind::Pass) == 2);
  CHECK(at(counts, OutcomeKind::Assertion) == 3);
  CHECK(at(counts, OutcomeKind::Deadlock) == 1);
}

TEST_CASE("--stop-after decides on the contiguous prefix of finished seeds") {
  // Seeds finish out of order: 3 fails early, but seeds 0-2 are not known yet.
  PrefixTracker t(10, 2);
  CHECK_FALSE(t.record(3, true));
  CHECK_FALSE(t.record(5, true));
  CHECK_FALSE(t.record(1, false));
  CHECK_FALSE(t.record(0, false));  // prefix 0..1, no failure yet
  CHECK(t.prefix() == 2);
  CHECK_FALSE(t.record(2, false));  // prefix 0..3 holds one failure (3)
  CHECK(t.prefix() == 4);
  CHECK(t.record(4, false));        // prefix 0..5 reaches the second failure (5)
  CHECK(t.stopped());
  CHECK(t.reported_count() == 6);   // seeds 0..5, up to and including the 2nd failure
  CHECK(t.record(9, true));         // keeps saying stop
  CHECK(t.reported_count() == 6);
}

TEST_CASE("the same finishing order in any permutation gives the same cut") {
  std::vector<std::uint64_t> order = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<bool> failed = {false, true, false, false, true, true, false, true};
  do {
    PrefixTracker t(8, 2);
    for (std::uint64_t i : order) {
      if (t.record(i, failed[i])) break;
    }
    CHECK(t.reported_count() == 5);
  } while (std::next_permutation(order.begin(), order.end()) && order[0] < 2);
}

TEST_CASE("without --stop-after every seed is reported") {
  PrefixTracker t(3, std::nullopt);
  CHECK_FALSE(t.record(0, true));
  CHECK_FALSE(t.record(1, true));
  CHECK_FALSE(t.record(2, true));
  CHECK_FALSE(t.stopped());
  CHECK(t.reported_count() == 3);
}

// A refutation next to the same lines failing on another location (localize/sibling_locations.h):
// which patterns are "the same lines", what evidence of the sibling counts, and the verdict.
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/forcing.h"
#include "localize/confirm.h"
#include "localize/sibling_locations.h"
#include "localize/verdict.h"
#include "driver_forced_result.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::forced_result;

namespace {

// R1-W2 at line 30 -> line 20, as two instructions (sites) per line may read two words.
ForcedPattern read_then_write(std::uint64_t read_site, std::uint64_t write_site, std::string location) {
  ForcedPattern p;
  p.directive.kind = static_cast<std::uint32_t>(ForceKind::Order);
  p.directive.count = 2;
  p.directive.steps[0] = force_step(read_site, ForceAccess::Read, 0);
  p.directive.steps[1] = force_step(write_site, ForceAccess::Write, 1);
  p.step_names = {"R m.cpp:30 report_once()", "W m.cpp:20 Registry()"};
  p.location = std::move(location);
  return p;
}

}  // namespace

TEST_CASE("sibling locations: same lines, kinds and roles, any site or location", "[verdict]") {
  const ForcedPattern a = read_then_write(0x100, 0x200, "0xe418");
  CHECK(same_lines(a, read_then_write(0x104, 0x208, "0xe420")));
  ForcedPattern other_line = read_then_write(0x104, 0x208, "0xe420");
  other_line.step_names[0] = "R m.cpp:31 report_once()";
  CHECK_FALSE(same_lines(a, other_line));
  ForcedPattern other_kind = read_then_write(0x104, 0x208, "0xe420");
  other_kind.directive.steps[0].access = static_cast<std::uint8_t>(ForceAccess::Write);
  CHECK_FALSE(same_lines(a, other_kind));
  ForcedPattern other_roles = read_then_write(0x104, 0x208, "0xe420");
  other_roles.directive.steps[1].role = 0;
  CHECK_FALSE(same_lines(a, other_roles));
  ForcedPattern longer = read_then_write(0x104, 0x208, "0xe420");
  longer.directive.steps[2] = force_step(0x104, ForceAccess::Read, 0);
  longer.directive.count = 3;
  longer.step_names.push_back("R m.cpp:30 report_once()");
  CHECK_FALSE(same_lines(a, longer));
}

TEST_CASE("sibling locations: what counts as failing like a cause", "[verdict]") {
  CHECK(fails_like_a_cause(forced_result(20, 20, 0.91), false));  // inconclusive only by the baseline
  CHECK(fails_like_a_cause(forced_result(20, 20, 0.02), false));  // confirmed
  CHECK(fails_like_a_cause(forced_result(20, 10, 0.02), false));  // half: what a cause shows
  CHECK_FALSE(fails_like_a_cause(forced_result(20, 9, 0.02), false));
  CHECK_FALSE(fails_like_a_cause(forced_result(20, 20, 0.02), true));  // a symptom fails by selection
  CHECK_FALSE(fails_like_a_cause(forced_result(kMinCompletedRuns - 1, kMinCompletedRuns - 1, 0.02), false));
  ConfirmationResult order_does_not_matter = forced_result(20, 20, 0.02);
  order_does_not_matter.counterfactual.outcome = CounterfactualOutcome::FailsAsOften;
  CHECK_FALSE(fails_like_a_cause(order_does_not_matter, false));
}

TEST_CASE("sibling locations: a refutation beside the same lines failing is inconclusive", "[verdict]") {
  const std::vector<ForcedPattern> patterns = {read_then_write(0x104, 0x208, "0xe420"),
                                               read_then_write(0x100, 0x200, "0xe418")};
  ConfirmationResult refuted = forced_result(20, 0, 0.91);
  ConfirmationResult failing = forced_result(20, 20, 0.91);
  REQUIRE(refuted.verdict == Verdict::Refuted);
  qualify_refutations_by_lines(patterns, {&refuted, &failing});
  CHECK(refuted.verdict == Verdict::Inconclusive);
  CHECK_FALSE(refuted.refuted);
  CHECK(refuted.reason ==
        "the same lines on 0xe418 fail 20/20 where that order completed: this location's order alone does not decide");
  CHECK(refuted.failed == 0);  // the evidence itself is kept
  CHECK(failing.verdict == Verdict::Inconclusive);
  CHECK(failing.reason.empty());
}

TEST_CASE("sibling locations: a refutation stands without such a sibling", "[verdict]") {
  const std::vector<ForcedPattern> patterns = {read_then_write(0x104, 0x208, "0xe420"),
                                               read_then_write(0x100, 0x200, "0xe418")};
  SECTION("the sibling fails rarely too") {
    ConfirmationResult refuted = forced_result(20, 0, 0.91);
    ConfirmationResult sibling = forced_result(20, 3, 0.91);
    qualify_refutations_by_lines(patterns, {&refuted, &sibling});
    CHECK(refuted.verdict == Verdict::Refuted);
    CHECK(sibling.verdict == Verdict::Refuted);
  }
  SECTION("the sibling is on other lines") {
    std::vector<ForcedPattern> others = patterns;
    others[1].step_names[1] = "W m.cpp:21 Registry()";
    ConfirmationResult refuted = forced_result(20, 0, 0.91);
    ConfirmationResult sibling = forced_result(20, 20, 0.91);
    qualify_refutations_by_lines(others, {&refuted, &sibling});
    CHECK(refuted.verdict == Verdict::Refuted);
  }
  SECTION("the sibling was not forced, or its order never completed") {
    ConfirmationResult refuted = forced_result(20, 0, 0.91);
    ConfirmationResult unrealized = forced_result(3, 3, 0.91);
    qualify_refutations_by_lines(patterns, {&refuted, nullptr});
    CHECK(refuted.verdict == Verdict::Refuted);
    qualify_refutations_by_lines(patterns, {&refuted, &unrealized});
    CHECK(refuted.verdict == Verdict::Refuted);
  }
  SECTION("one result shared by two entries (the same directive) is not its own sibling") {
    ConfirmationResult refuted = forced_result(20, 0, 0.91);
    qualify_refutations_by_lines(patterns, {&refuted, &refuted});
    CHECK(refuted.verdict == Verdict::Refuted);
  }
}

TEST_CASE("sibling locations: an unknown location is named as another", "[verdict]") {
  ConfirmationResult refuted = forced_result(20, 0, 0.02);
  qualify_refutation(refuted, forced_result(18, 15, 0.02), "");
  CHECK(refuted.verdict == Verdict::Inconclusive);
  CHECK(refuted.reason ==
        "the same lines on another location fail 15/18 where that order completed: this location's order alone does "
        "not decide");
  ConfirmationResult confirmed = forced_result(20, 20, 0.02);
  qualify_refutation(confirmed, forced_result(20, 20, 0.02), "x");
  CHECK(confirmed.verdict == Verdict::Confirmed);
}

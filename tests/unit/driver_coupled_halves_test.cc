// A two-variable finding's pairs, each reversed alone, and the single patterns confirmed as such a
// pair (localize/coupled_halves.h).
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/forcing.h"
#include "localize/confirm.h"
#include "localize/coupled_halves.h"
#include "localize/verdict.h"
#include "driver_forced_result.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::forced_result;

namespace {

constexpr std::uint64_t kReadSum = 0x39, kAddSum = 0x22, kAddCount = 0x25, kReadCount = 0x42;

ForceStep on(std::uint64_t site, ForceAccess access, std::uint8_t role, std::uint16_t location) {
  ForceStep step = force_step(site, access, role);
  step.location = location;
  return step;
}

// latency_stats's Locon finding: the reporter (role 0) reads the sum before the handler (role 1)
// adds to it, and the handler's count increment comes before the reporter reads the count.
ForcedPattern straddle() {
  ForcedPattern p;
  p.directive = order_directive({on(kReadSum, ForceAccess::Read, 0, 0), on(kAddSum, ForceAccess::Write, 1, 0),
                                 on(kAddCount, ForceAccess::Write, 1, 1), on(kReadCount, ForceAccess::Read, 0, 1)});
  p.step_names = {"R l.c:39 reporter", "W l.c:22 add_sample", "W l.c:25 add_sample", "R l.c:42 reporter"};
  return p;
}

// The order of two accesses: `first` by role 0, then `second` by role 1.
ForcedPattern two_step_pattern(std::uint64_t first, ForceAccess first_access, std::uint64_t second,
                               ForceAccess second_access) {
  ForcedPattern p;
  p.directive = order_directive({force_step(first, first_access, 0), force_step(second, second_access, 1)});
  p.step_names = {"first", "second"};
  return p;
}

// `after_own_steps` of the failures came after the failing thread's own steps, the reversed order
// incomplete.
HalfControl reversed(const HalfReversal& r, std::uint64_t completed, std::uint64_t failed, const ConfirmationResult& finding,
                     std::uint64_t after_own_steps = 0) {
  HalfControl h;
  h.location = r.location;
  h.first = r.first;
  h.second = r.second;
  h.completed = completed;
  h.failed = failed;
  h.completed_in_order = completed - after_own_steps;
  h.failed_in_order = failed - after_own_steps;
  decide_half(h, finding.failed, finding.completed);
  return h;
}

}  // namespace

TEST_CASE("coupled halves: each pair of a two-location order reversed alone", "[verdict]") {
  const std::vector<HalfReversal> r = half_reversals(straddle().directive);
  REQUIRE(r.size() == 2);
  CHECK(r[0].location == 0);
  CHECK(r[0].first == 0);
  CHECK(r[0].second == 1);
  CHECK(r[0].order == std::vector<std::uint32_t>{1, 0, 2, 3});  // W22 → R39 → W25 → R42
  CHECK(r[1].order == std::vector<std::uint32_t>{0, 1, 3, 2});  // R39 → W22 → R42 → W25

  // Interleaved pairs whose swap would run one thread's steps out of program order: no control.
  ForceDirective crossed = order_directive({on(1, ForceAccess::Write, 0, 0), on(2, ForceAccess::Write, 0, 1),
                                            on(3, ForceAccess::Read, 1, 0), on(4, ForceAccess::Read, 1, 1)});
  CHECK(half_reversals(crossed).empty());
  // One location, three locations, a sync step, a pair on one thread: none.
  CHECK(half_reversals(two_step_pattern(1, ForceAccess::Write, 2, ForceAccess::Read).directive).empty());
  ForceDirective three = straddle().directive;
  three.steps[3].location = 2;
  CHECK(half_reversals(three).empty());
  ForceDirective sync = straddle().directive;
  sync.steps[0] = force_sync_step(kReadSum, 1, 0);
  CHECK(half_reversals(sync).empty());
  ForceDirective one_thread = straddle().directive;
  one_thread.steps[3].role = 1;
  CHECK(half_reversals(one_thread).empty());
}

TEST_CASE("coupled halves: a pair is needed when its reversal fails significantly less", "[verdict]") {
  const std::vector<HalfReversal> r = half_reversals(straddle().directive);
  const ConfirmationResult finding = forced_result(8, 8, 0.30);
  CHECK(reversed(r[1], 8, 0, finding).needed);
  CHECK_FALSE(reversed(r[1], 8, 0, finding).not_needed);
  CHECK_FALSE(reversed(r[1], 6, 0, finding).needed);  // too few completed: no control
  CHECK_FALSE(reversed(r[1], 6, 0, finding).not_needed);
  // Fails nearly as often where the reversed order happened: not needed, and the finding, which
  // claims both pairs, is not confirmed.
  const HalfControl as_often = reversed(r[1], 8, 6, finding);
  CHECK_FALSE(as_often.needed);
  CHECK(as_often.not_needed);
  CHECK(pair_not_needed({reversed(r[0], 8, 0, finding), as_often}) != nullptr);
  CHECK(pair_not_needed({reversed(r[0], 8, 0, finding), reversed(r[1], 8, 0, finding)}) == nullptr);
  // 12 of 12 "failed", all after the failing thread's own steps (the loop's next iteration), the
  // reversed order itself never complete: not shown either way.
  const HalfControl spoiled = reversed(r[1], 12, 12, finding, 12);
  CHECK_FALSE(spoiled.needed);
  CHECK_FALSE(spoiled.not_needed);
}

TEST_CASE("coupled halves: a single pattern that is a needed pair is confirmed as that part", "[verdict]") {
  const ForcedPattern finding_pattern = straddle();
  const std::vector<HalfReversal> r = half_reversals(finding_pattern.directive);
  ConfirmationResult finding = forced_result(8, 8, 0.30);
  REQUIRE(finding.verdict == Verdict::Confirmed);
  finding.halves = {reversed(r[0], 12, 0, finding), reversed(r[1], 8, 0, finding)};
  finding.replay_command = "ctrlsched replay --schedule forced-3.sched ./latency_stats";

  // Falcon's W1-R2 on the count (inconclusive alone), ConSeq's refuted copy of it, the other
  // straddle's pair (not one of the finding's), and a symptom with the finding's pair.
  const ForcedPattern count_flow = two_step_pattern(kAddCount, ForceAccess::Write, kReadCount, ForceAccess::Read);
  const ForcedPattern other_straddle = two_step_pattern(kReadCount, ForceAccess::Read, kAddCount, ForceAccess::Write);
  ForcedPattern symptom = count_flow;
  symptom.symptom = true;
  ConfirmationResult alone = forced_result(8, 1, 0.30);
  REQUIRE(alone.verdict == Verdict::Inconclusive);
  ConfirmationResult refuted = forced_result(12, 0, 0.30);
  REQUIRE(refuted.verdict == Verdict::Refuted);
  ConfirmationResult other = forced_result(20, 8, 0.30);
  ConfirmationResult symptom_result = forced_result(8, 1, 0.30);
  const std::vector<ForcedPattern> patterns = {count_flow, finding_pattern, count_flow, other_straddle, symptom};
  std::vector<ConfirmationResult*> results = {&alone, &finding, &refuted, &other, &symptom_result};
  confirm_coupled_parts(patterns, results);

  CHECK(alone.verdict == Verdict::Confirmed);
  REQUIRE(alone.coupled_part);
  CHECK(alone.coupled_part->partner == "R l.c:39 reporter → W l.c:22 add_sample");
  CHECK(alone.coupled_part->finding_failed == 8);
  CHECK(alone.coupled_part->control.failed == 0);
  CHECK(alone.coupled_part->replay_command == finding.replay_command);
  REQUIRE(alone.alone);
  CHECK(alone.alone->verdict == Verdict::Inconclusive);
  CHECK(alone.alone->failed == 1);
  CHECK(refuted.verdict == Verdict::Confirmed);
  CHECK_FALSE(refuted.refuted);
  CHECK(other.verdict == Verdict::Inconclusive);
  CHECK_FALSE(other.coupled_part);
  CHECK(symptom_result.verdict == Verdict::Inconclusive);
  CHECK(finding.verdict == Verdict::Confirmed);
  CHECK_FALSE(finding.coupled_part);
}

TEST_CASE("coupled halves: a pair not shown to be needed confirms nothing", "[verdict]") {
  const ForcedPattern finding_pattern = straddle();
  const std::vector<HalfReversal> r = half_reversals(finding_pattern.directive);
  ConfirmationResult finding = forced_result(8, 8, 0.30);
  finding.halves = {reversed(r[1], 8, 7, finding)};  // reversed, the count's pair fails as often
  ConfirmationResult alone = forced_result(8, 1, 0.30);
  const std::vector<ForcedPattern> patterns = {
      two_step_pattern(kAddCount, ForceAccess::Write, kReadCount, ForceAccess::Read), finding_pattern};
  std::vector<ConfirmationResult*> results = {&alone, &finding};
  confirm_coupled_parts(patterns, results);
  CHECK(alone.verdict == Verdict::Inconclusive);
  // Nor does a needed pair of a finding that is not confirmed.
  finding.halves = {reversed(r[1], 8, 0, finding)};
  finding.verdict = Verdict::Inconclusive;
  confirm_coupled_parts(patterns, results);
  CHECK(alone.verdict == Verdict::Inconclusive);
}

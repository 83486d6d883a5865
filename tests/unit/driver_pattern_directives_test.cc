// Suspected patterns become forced orders with the right accesses and thread roles.
#include <catch2/catch.hpp>

#include "ctrlsched/sync_ops.h"
#include "localize/pattern_directives.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
namespace locon = ctrlsched::localize::locon;

namespace {

struct Expected {
  std::uint64_t site;
  ForceAccess access;
  std::uint8_t role;
};

void check_steps(const ForceDirective& d, std::initializer_list<Expected> expected) {
  CHECK(d.kind == static_cast<std::uint32_t>(ForceKind::Order));
  REQUIRE(d.count == expected.size());
  std::size_t i = 0;
  for (const Expected& e : expected) {
    INFO("step " << i);
    CHECK(d.steps[i].site == e.site);
    CHECK(d.steps[i].access == static_cast<std::uint8_t>(e.access));
    CHECK(d.steps[i].role == e.role);
    ++i;
  }
}

locon::PairKey pair_key(std::uint64_t head, bool head_write, std::uint32_t head_thread, std::uint64_t tail,
                        bool tail_write, std::uint32_t tail_thread) {
  return {{head, head_write, head_thread, 0}, {tail, tail_write, tail_thread, 0}};
}

// R1-W2 36 → 31: an order violation's read, then the write it needed first.
localize::FalconPatternId read_then_write() {
  localize::FalconPatternId id;
  id.kind = FalconKind::R1W2;
  id.sites = {0x36, 0x31, 0};
  return id;
}

}  // namespace

TEST_CASE("a Falcon triple forces its three accesses with roles 1, 2, 1") {
  localize::FalconPatternId id;
  id.kind = FalconKind::R1W2W1;
  id.sites = {0x10, 0x20, 0x30};
  const ForceDirective d = falcon_directive(id, 77);
  CHECK(d.hold_limit == 77);
  check_steps(d, {{0x10, ForceAccess::Read, 0}, {0x20, ForceAccess::Write, 1}, {0x30, ForceAccess::Write, 0}});

  id.kind = FalconKind::W1R2W1;
  check_steps(falcon_directive(id), {{0x10, ForceAccess::Write, 0}, {0x20, ForceAccess::Read, 1}, {0x30, ForceAccess::Write, 0}});
}

TEST_CASE("a Falcon pair forces two accesses by two threads") {
  localize::FalconPatternId id;
  id.kind = FalconKind::W1R2;
  id.sites = {0x10, 0x20, 0};
  check_steps(falcon_directive(id), {{0x10, ForceAccess::Write, 0}, {0x20, ForceAccess::Read, 1}});
}

TEST_CASE("a Locon procedure II finding forces the reported (reversed) pair") {
  locon::Finding finding;
  finding.procedure = locon::Procedure::II;
  finding.level = locon::Level::Pc;
  finding.pairs = {pair_key(0x28, false, 0, 0x38, true, 0)};
  const auto d = locon_directive(finding);
  REQUIRE(d);
  check_steps(*d, {{0x28, ForceAccess::Read, 0}, {0x38, ForceAccess::Write, 1}});
}

TEST_CASE("a Locon procedure II coupled finding forces its partner, then the culprit, as one order") {
  // atomicity_multi_var: culprit R@49 → W@38 (sum), partner W@35 → R@49 (count).
  locon::Finding finding;
  finding.procedure = locon::Procedure::II;
  finding.level = locon::Level::Pc;
  finding.pairs = {pair_key(0x31, false, 0, 0x27, true, 0), pair_key(0x24, true, 0, 0x31, false, 0)};
  const auto d = locon_directive(finding);
  REQUIRE(d);
  check_steps(*d, {{0x24, ForceAccess::Write, 0},
                   {0x31, ForceAccess::Read, 1},
                   {0x31, ForceAccess::Read, 1},
                   {0x27, ForceAccess::Write, 0}});
  CHECK(d->steps[0].location == 0);
  CHECK(d->steps[1].location == 0);
  CHECK(d->steps[2].location == 1);
  CHECK(d->steps[3].location == 1);
}

TEST_CASE("a Locon procedure II coupled finding whose culprit comes first in program order forces it first") {
  // latency_stats: culprit R@39 → W@22 (the reporter reads the sum before the handler's second
  // add), partner W@25 → R@42 (the handler counts, then the reporter reads the count). The reporter
  // reads 39 before 42: partner first would ask it to read 42 before 39.
  locon::Finding finding;
  finding.procedure = locon::Procedure::II;
  finding.level = locon::Level::Pc;
  finding.pairs = {pair_key(39, false, 0, 22, true, 0), pair_key(25, true, 0, 42, false, 0)};
  finding.culprit_first = true;
  const auto d = locon_directive(finding);
  REQUIRE(d);
  check_steps(*d, {{39, ForceAccess::Read, 0}, {22, ForceAccess::Write, 1}, {25, ForceAccess::Write, 1}, {42, ForceAccess::Read, 0}});
  CHECK(d->steps[0].location == 0);
  CHECK(d->steps[2].location == 1);
}

TEST_CASE("a Locon procedure III finding forces both pairs; roles follow threads when known") {
  locon::Finding finding;
  finding.procedure = locon::Procedure::III;
  finding.level = locon::Level::Tid;
  // W T1 x → R T2 x, then R T2 y → W T1 y
  finding.pairs = {pair_key(0x35, true, 1, 0x49, false, 2), pair_key(0x4a, false, 2, 0x38, true, 1)};
  auto d = locon_directive(finding);
  REQUIRE(d);
  check_steps(*d, {{0x35, ForceAccess::Write, 0},
                   {0x49, ForceAccess::Read, 1},
                   {0x4a, ForceAccess::Read, 1},
                   {0x38, ForceAccess::Write, 0}});

  CHECK(d->steps[0].location == 0);  // two locations: one per pair
  CHECK(d->steps[1].location == 0);
  CHECK(d->steps[2].location == 1);
  CHECK(d->steps[3].location == 1);

  finding.level = locon::Level::Pc;  // threads unknown: the second pair starts where the first ended
  d = locon_directive(finding);
  REQUIRE(d);
  check_steps(*d, {{0x35, ForceAccess::Write, 0},
                   {0x49, ForceAccess::Read, 1},
                   {0x4a, ForceAccess::Read, 1},
                   {0x38, ForceAccess::Write, 0}});
  // The other guess, for a reference run whose second pair started on the first pair's head
  // thread (log_queue_cv: both waiters woken, T1 first; T1 pops, T2 reads).
  const auto other = second_pair_from_first_thread(*d);
  REQUIRE(other);
  check_steps(*other, {{0x35, ForceAccess::Write, 0},
                       {0x49, ForceAccess::Read, 1},
                       {0x4a, ForceAccess::Read, 0},
                       {0x38, ForceAccess::Write, 1}});
  CHECK(other->steps[2].location == 1);
  // Only for the pc-level guess: not for a finding whose threads were known, nor a single pair.
  finding.level = locon::Level::Tid;
  finding.pairs = {pair_key(0x35, true, 1, 0x49, false, 2), pair_key(0x4a, false, 1, 0x38, true, 2)};
  d = locon_directive(finding);
  REQUIRE(d);
  CHECK(d->steps[2].role == 0);
  CHECK_FALSE(second_pair_from_first_thread(*other).has_value());
  finding.pairs.resize(1);
  d = locon_directive(finding);
  REQUIRE(d);
  CHECK_FALSE(second_pair_from_first_thread(*d).has_value());
}

TEST_CASE("a finding without pairs has no directive") {
  CHECK_FALSE(locon_directive(locon::Finding{}).has_value());
}

TEST_CASE("held before its lock: the lock call goes before the step, by its role, on a location of its own") {
  ForceDirective d = falcon_directive(read_then_write());
  d.steps[1].occurrence = 2;
  const auto held = held_before_lock(d, 1, 0x30);
  REQUIRE(held);
  REQUIRE(held->count == 3);
  CHECK(held->steps[0].site == 0x36);
  CHECK(held->steps[1].site == 0x30);
  CHECK(held->steps[1].access == kForceSync + static_cast<std::uint8_t>(SyncOp::Lock));
  CHECK(held->steps[1].role == 1);
  CHECK(held->steps[1].occurrence == 0);
  CHECK(held->steps[1].location != held->steps[0].location);
  CHECK(held->steps[2].site == 0x31);  // the step itself, unchanged
  CHECK(held->steps[2].occurrence == 2);
  CHECK(held->hold_limit == d.hold_limit);
}

TEST_CASE("held before its lock: not before step 1, not without a site, not beyond the step limit") {
  const ForceDirective d = falcon_directive(read_then_write());
  CHECK_FALSE(held_before_lock(d, 0, 0x30));
  CHECK_FALSE(held_before_lock(d, 2, 0x30));
  CHECK_FALSE(held_before_lock(d, 1, 0));
  ForceDirective full = d;
  full.count = kMaxForceSteps;
  CHECK_FALSE(held_before_lock(full, 1, 0x30));
}

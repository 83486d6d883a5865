// Patterns explained by another confirmed pattern (localize/explained_by.h), the Falcon pattern a
// forced order expresses, atomics as accesses of the analyses (ctrlsched/plain_access.h) and the
// symbolizer's toolchain-header test (report/symbolizer.h).
#include <catch2/catch.hpp>

#include "ctrlsched/plain_access.h"
#include "localize/explained_by.h"
#include "report/symbolizer.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using localize::FalconPatternId;

namespace {

FalconPatternId pattern(FalconKind kind, std::uint64_t a, std::uint64_t b, std::uint64_t c = 0) {
  FalconPatternId id;
  id.kind = kind;
  id.sites = {a, b, c};
  return id;
}

std::vector<FalconPatternId> sorted(std::vector<FalconPatternId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

ForcedPatternEvidence evidence(const FalconPatternId& id, bool confirmed,
                               std::vector<std::vector<FalconPatternId>> runs) {
  ForcedPatternEvidence e;
  e.id = id;
  e.confirmed = confirmed;
  for (auto& run : runs) e.failing_runs.push_back(sorted(run));
  return e;
}

ForceStep step(std::uint64_t site, ForceAccess access, std::uint8_t role) {
  return ForceStep{site, static_cast<std::uint8_t>(access), role, 0, 0};
}

ForceDirective order(std::initializer_list<ForceStep> steps) {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  for (const ForceStep& s : steps) d.steps[d.count++] = s;
  return d;
}

}  // namespace

TEST_CASE("explained by: a pattern whose failures all performed a higher-ranked cause gives way",
          "[explained_by]") {
  // Q, the real lost update, fails without the pair P; every failure of P performed Q.
  const FalconPatternId q = pattern(FalconKind::R1W2W1, 10, 20, 20);
  const FalconPatternId p = pattern(FalconKind::W1W2, 30, 30);
  const std::vector<ForcedPatternEvidence> ranked = {
      evidence(q, true, {{q}, {q, p}, {q}}),
      evidence(p, true, {{p, q}, {p, q}}),
  };
  const auto by = explained_by(ranked);
  CHECK_FALSE(by[0].has_value());
  REQUIRE(by[1].has_value());
  CHECK(*by[1] == 0);
}

TEST_CASE("explained by: what does not explain", "[explained_by]") {
  const FalconPatternId q = pattern(FalconKind::R1W2W1, 10, 20, 20);
  const FalconPatternId p = pattern(FalconKind::W1W2, 30, 30);
  SECTION("each in all of the other's failures: the evidence cannot separate them") {
    const std::vector<ForcedPatternEvidence> ranked = {evidence(q, true, {{q, p}, {q, p}}),
                                                       evidence(p, true, {{p, q}})};
    CHECK(explained_by(ranked) == std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt});
  }
  SECTION("one failure of P without Q: P is not explained") {
    const std::vector<ForcedPatternEvidence> ranked = {evidence(q, true, {{q}}),
                                                       evidence(p, true, {{p, q}, {p}})};
    CHECK_FALSE(explained_by(ranked)[1].has_value());
  }
  SECTION("Q not confirmed") {
    const std::vector<ForcedPatternEvidence> ranked = {evidence(q, false, {{q}}),
                                                       evidence(p, true, {{p, q}})};
    CHECK_FALSE(explained_by(ranked)[1].has_value());
  }
  SECTION("Q ranked below P: a pattern missing from a run's window does not demote the higher one") {
    const std::vector<ForcedPatternEvidence> ranked = {evidence(p, true, {{p, q}}),
                                                       evidence(q, true, {{q}, {q}})};
    CHECK(explained_by(ranked) == std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt});
  }
  SECTION("a pattern no Falcon pattern expresses takes no part") {
    ForcedPatternEvidence unnamed = evidence(q, true, {{q}});
    unnamed.id.reset();
    const std::vector<ForcedPatternEvidence> ranked = {unnamed, evidence(p, true, {{p, q}})};
    CHECK_FALSE(explained_by(ranked)[1].has_value());
  }
}

TEST_CASE("explained by: the Falcon pattern a forced order expresses", "[explained_by]") {
  const auto rww = falcon_pattern_of(
      order({step(5, ForceAccess::Read, 0), step(6, ForceAccess::Write, 1), step(7, ForceAccess::Write, 0)}));
  REQUIRE(rww.has_value());
  CHECK(rww->kind == FalconKind::R1W2W1);
  CHECK(rww->sites == std::array<std::uint64_t, 3>{5, 6, 7});
  const auto wr = falcon_pattern_of(order({step(5, ForceAccess::Write, 0), step(6, ForceAccess::Read, 1)}));
  REQUIRE(wr.has_value());
  CHECK(wr->kind == FalconKind::W1R2);
  CHECK(wr->sites[2] == 0);
  // Not Falcon patterns: one thread, a read-read pair, a third role, a sync step.
  CHECK_FALSE(falcon_pattern_of(order({step(5, ForceAccess::Write, 0), step(6, ForceAccess::Read, 0)})));
  CHECK_FALSE(falcon_pattern_of(order({step(5, ForceAccess::Read, 0), step(6, ForceAccess::Read, 1)})));
  CHECK_FALSE(falcon_pattern_of(
      order({step(5, ForceAccess::Read, 0), step(6, ForceAccess::Write, 1), step(7, ForceAccess::Write, 2)})));
  CHECK_FALSE(falcon_pattern_of(order({step(5, ForceAccess::Write, 0), ForceStep{6, kForceSync + 1, 1, 0, 0}})));
}

TEST_CASE("plain accesses: atomic operations are reads and writes of the analyses", "[atomics]") {
  CHECK(plain_access_kind(EventKind::Read) == PlainAccess::Read);
  CHECK(plain_access_kind(EventKind::AtomicLoad) == PlainAccess::Read);
  CHECK(plain_access_kind(EventKind::Write) == PlainAccess::Write);
  CHECK(plain_access_kind(EventKind::AtomicStore) == PlainAccess::Write);
  CHECK(plain_access_kind(EventKind::AtomicRmw, 0x1000) == PlainAccess::Write);
  CHECK(plain_access_kind(EventKind::AtomicRmw, 0) == PlainAccess::None);  // a fence
  CHECK(plain_access_kind(EventKind::FuncEntry) == PlainAccess::None);
}

TEST_CASE("symbolizer: toolchain headers are walked out of", "[atomics]") {
  CHECK(is_toolchain_header("/usr/include/c++/12/bits/atomic_base.h"));
  CHECK(is_toolchain_header("/usr/include/c++/12/bits/stl_tree.h"));
  CHECK(is_toolchain_header("/usr/include/x86_64-linux-gnu/bits/stdio2.h"));
  CHECK(is_toolchain_header("/usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h"));
  CHECK_FALSE(is_toolchain_header("/work/project/src/cache.cpp"));
  CHECK_FALSE(is_toolchain_header("../tests/eval/corpus/hit_counter.cpp"));
  CHECK_FALSE(is_toolchain_header(""));
}

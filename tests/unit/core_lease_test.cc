// Leases: a strategy that kept the current thread may promise to keep it for the next n points
// (unless something changes), so the engine need not ask at every memory access. The promise is
// part of the schedule: recorded, replayed and verified like any decision.
#include <catch2/catch.hpp>

#include <vector>

#include "ctrlsched/strategy.h"
#include "pct_strategy.h"

using namespace ctrlsched;

namespace {

class VectorSink final : public DecisionSink {
 public:
  void append(Decision d) override { decisions.push_back(d); }
  std::vector<Decision> decisions;
};

SchedulingPoint point_at(std::uint64_t step, ThreadId current, const std::vector<Candidate>& candidates,
                         PointKind kind = PointKind::Access) {
  return SchedulingPoint{current, true, kind, step, candidates};
}

}  // namespace

TEST_CASE("pct: a kept thread is leased up to the next change point", "[lease][pct]") {
  PctStrategy pct(7, 3, 100);
  pct.on_thread_created(0, kNoThread);
  pct.on_thread_created(1, 0);
  const std::vector<Candidate> both = {{0, false}, {1, false}};
  const ThreadId top = pct.priority(0) > pct.priority(1) ? 0 : 1;
  std::vector<std::uint64_t> changes(pct.change_points().begin(), pct.change_points().end());
  std::sort(changes.begin(), changes.end());
  REQUIRE(changes.size() == 2);
  const std::uint64_t step = changes[0] - 1;  // just before the first change point
  REQUIRE(step >= 1);
  REQUIRE(pct.next_thread(point_at(step, top, both)) == top);
  CHECK(pct.lease(point_at(step, top, both)) == 0);  // the very next point is a change point
  const auto after_last = point_at(changes[1] + 1, top, both);
  if (pct.next_thread(after_last) == top) CHECK(pct.lease(after_last) == kUnboundedLease);
  const std::uint64_t early = 1;
  if (early < changes[0] - 1 && pct.next_thread(point_at(early, top, both)) == top)
    CHECK(pct.lease(point_at(early, top, both)) == changes[0] - early - 1);
}

TEST_CASE("pct: a thread whose timeout fires drops below everyone", "[lease][pct]") {
  PctStrategy pct(3, 1, 10);
  pct.on_thread_created(0, kNoThread);
  pct.on_thread_created(1, 0);
  pct.on_thread_created(2, 0);
  ThreadId top = 0;
  for (ThreadId t = 1; t < 3; ++t)
    if (pct.priority(t) > pct.priority(top)) top = t;
  std::vector<Candidate> candidates = {{0, false}, {1, false}, {2, false}};
  candidates[top].timed_wait = true;
  const ThreadId other = top == 0 ? 1 : 0;
  REQUIRE(pct.next_thread(SchedulingPoint{other, true, PointKind::Sync, 1, candidates}) == top);
  for (ThreadId t = 0; t < 3; ++t)
    if (t != top) CHECK(pct.priority(top) < pct.priority(t));
}

TEST_CASE("random: no lease before the preemption bound, unbounded after", "[lease][random]") {
  auto bounded = make_random_strategy(11, 0);
  const std::vector<Candidate> both = {{0, false}, {1, false}};
  REQUIRE(bounded->next_thread(point_at(1, 0, both)) == 0);
  CHECK(bounded->lease(point_at(1, 0, both)) == kUnboundedLease);
  auto unbounded = make_random_strategy(11, std::nullopt);
  for (std::uint64_t step = 1; step < 50; ++step) {
    const auto p = point_at(step, 0, both);
    if (unbounded->next_thread(p) == 0) CHECK(unbounded->lease(p) == 0);
  }
}

TEST_CASE("leases are recorded, replayed and verified", "[lease][replay]") {
  const std::vector<Candidate> both = {{0, false}, {1, false}};
  auto pct = make_pct_strategy(5, 2, 1000);
  VectorSink sink;
  RecordingStrategy recording(*pct, sink);
  recording.on_thread_created(0, kNoThread);
  recording.on_thread_created(1, 0);
  std::vector<std::uint32_t> leases;
  ThreadId current = 0;
  for (std::uint64_t step = 1; step <= 1000; ++step) {
    const auto p = point_at(step, current, both);
    const ThreadId chosen = recording.next_thread(p);
    std::uint32_t lease = chosen == current ? recording.lease(p) : 0;
    leases.push_back(lease);
    current = chosen;
    if (lease == kUnboundedLease) break;
    step += lease;
  }
  REQUIRE(std::count_if(sink.decisions.begin(), sink.decisions.end(),
                        [](Decision d) { return d.kind == DecisionKind::Lease; }) > 0);
  CHECK(recording.decisions() == sink.decisions.size());

  SECTION("replay grants the same leases") {
    auto replay = make_replay_strategy(sink.decisions);
    current = 0;
    std::size_t i = 0;
    for (std::uint64_t step = 1; step <= 1000 && i < leases.size(); ++step, ++i) {
      const auto p = point_at(step, current, both);
      const ThreadId chosen = replay->next_thread(p);
      const std::uint32_t lease = chosen == current ? replay->lease(p) : 0;
      CHECK(lease == leases[i]);
      current = chosen;
      if (lease == kUnboundedLease) break;
      step += lease;
    }
    CHECK_FALSE(replay->divergence().has_value());
  }

  SECTION("verifying reports a lease that differs") {
    std::vector<Decision> edited = sink.decisions;
    auto lease_at = std::find_if(edited.begin(), edited.end(), [](Decision d) { return d.kind == DecisionKind::Lease; });
    lease_at->value += 1;
    auto fresh = make_pct_strategy(5, 2, 1000);
    auto verifying = make_verifying_strategy(*fresh, edited);
    verifying->on_thread_created(0, kNoThread);
    verifying->on_thread_created(1, 0);
    current = 0;
    for (std::uint64_t step = 1; step <= 1000 && !verifying->divergence(); ++step) {
      const auto p = point_at(step, current, both);
      const ThreadId chosen = verifying->next_thread(p);
      const std::uint32_t lease = chosen == current ? verifying->lease(p) : 0;
      current = chosen;
      if (lease == kUnboundedLease) break;
      step += lease;
    }
    REQUIRE(verifying->divergence().has_value());
    CHECK_THAT(verifying->divergence()->what, Catch::Contains("recorded L"));
  }
}

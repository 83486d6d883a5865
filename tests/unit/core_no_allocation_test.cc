// Strategies run inside the LD_PRELOAD shim, at points where calling malloc may be unsafe: after
// construction they must never allocate, not even to word a divergence. This file replaces the
// global operator new to count allocations while strategies are driven. (Skipped under
// AddressSanitizer, which owns operator new.)
#include <catch2/catch.hpp>

#if !defined(__SANITIZE_ADDRESS__)

#include <array>
#include <cstdlib>
#include <new>
#include <vector>

#include "ctrlsched/preemption_schedule.h"
#include "ctrlsched/forcing.h"
#include "ctrlsched/strategy.h"

namespace {
long g_allocations = 0;

void* counted_allocation(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_allocation(size); }
void* operator new[](std::size_t size) { return counted_allocation(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace ctrlsched;

namespace {

// Counts allocations while `drive` runs.
template <typename Drive>
long allocations_during(Drive drive) {
  const long before = g_allocations;
  drive();
  return g_allocations - before;
}

// Drives a strategy through `points` scheduling points among 4 threads, with wake and spurious
// questions, from preallocated arrays only.
void drive(Strategy& strategy, int points) {
  static constexpr std::array<Candidate, 4> kAll = {Candidate{0, false}, Candidate{1, false}, Candidate{2, true},
                                                    Candidate{3, false}};
  static constexpr std::array<ThreadId, 3> kWaiters = {1, 2, 3};
  static constexpr std::array<PointKind, 4> kKinds = {PointKind::Sync, PointKind::Access, PointKind::Yield,
                                                      PointKind::Create};
  ThreadId current = 0;
  for (int step = 1; step <= points; ++step) {
    const SchedulingPoint point{current, true, kKinds[static_cast<std::size_t>(step) % kKinds.size()],
                                static_cast<std::uint64_t>(step), kAll};
    current = strategy.next_thread(point);
    if (step % 5 == 0) strategy.pick_waiter(WakeKind::CondSignal, kWaiters);
    if (step % 7 == 0) strategy.spurious_wakeup(current);
  }
}

class PreallocatedSink final : public DecisionSink {
 public:
  PreallocatedSink() { decisions.reserve(10000); }
  void append(Decision d) override { decisions.push_back(d); }
  std::vector<Decision> decisions;
};

void announce(Strategy& strategy) {
  for (ThreadId t = 0; t < 4; ++t) strategy.on_thread_created(t, t == 0 ? kNoThread : 0);
}

}  // namespace

TEST_CASE("random and pct strategies never allocate after construction", "[alloc]") {
  const auto random = make_random_strategy(1, 3);
  const auto pct = make_pct_strategy(1, 5, 500);
  CHECK(allocations_during([&] {
          announce(*random);
          drive(*random, 1000);
          announce(*pct);
          drive(*pct, 1000);
        }) == 0);
}

TEST_CASE("recording, replay and verification never allocate, even when diverging", "[alloc]") {
  const auto original = make_random_strategy(2, std::nullopt);
  PreallocatedSink sink;
  RecordingStrategy recording(*original, sink);
  CHECK(allocations_during([&] { drive(recording, 1000); }) == 0);

  std::vector<Decision> log = sink.decisions;
  const auto replay = make_replay_strategy(log);
  CHECK(allocations_during([&] { drive(*replay, 1000); }) == 0);
  CHECK_FALSE(replay->divergence().has_value());

  // The same log, with one decision naming a thread that does not exist: replay diverges there.
  log[log.size() / 2] = {DecisionKind::Schedule, 77};
  const auto diverging = make_replay_strategy(log);
  CHECK(allocations_during([&] { drive(*diverging, 1000); }) == 0);
  CHECK(diverging->divergence().has_value());

  const auto inner = make_random_strategy(3, std::nullopt);
  const auto verifying = make_verifying_strategy(*inner, sink.decisions);
  CHECK(allocations_during([&] { drive(*verifying, 1000); }) == 0);
  CHECK(verifying->divergence().has_value());

  // Running past the end of the schedule diverges too.
  const auto exhausted = make_replay_strategy({});
  CHECK(allocations_during([&] { drive(*exhausted, 10); }) == 0);
  CHECK(exhausted->divergence().has_value());
}

TEST_CASE("switch recording and the preemption strategy never allocate", "[alloc]") {
  class PreallocatedSwitchSink final : public SwitchSink {
   public:
    PreallocatedSwitchSink() { points.reserve(10000); }
    void append(const SwitchPoint& p) override { points.push_back(p); }
    std::vector<SwitchPoint> points;
  } sink;
  const auto original = make_random_strategy(4, std::nullopt);
  SwitchRecordingStrategy recording(*original, sink);
  CHECK(allocations_during([&] { drive(recording, 1000); }) == 0);
  const auto preemptions = make_preemption_strategy(sink.points);
  CHECK(allocations_during([&] { drive(*preemptions, 1000); }) == 0);
  CHECK(preemptions->preemptions() > 0);
}

TEST_CASE("the forcing strategy never allocates after construction", "[alloc][forcing]") {
  const auto base = make_random_strategy(4, std::nullopt);
  const ForceDirective order = order_directive({force_step(0x10, ForceAccess::Read, 0),
                                                force_step(0x20, ForceAccess::Write, 1)}, 5);
  ForcingStrategy forcing(*base, order);
  static constexpr std::array<Candidate, 3> kPending = {Candidate{0, false, PendingKind::Write, 0x20, 8},
                                                        Candidate{1, false, PendingKind::Read, 0x10, 8},
                                                        Candidate{2, true}};
  CHECK(allocations_during([&] {
          announce(forcing);
          ThreadId current = 0;
          for (std::uint64_t step = 1; step <= 500; ++step) {
            current = forcing.next_thread(SchedulingPoint{current, true, PointKind::Access, step, kPending});
            const Candidate& c = kPending[current];
            forcing.observe(TraceEvent{static_cast<std::uint8_t>(c.pending == PendingKind::Read ? EventKind::Read
                                                                                                 : EventKind::Write),
                                       4, 0, current, 8, c.pending_site});
            forcing.lease(SchedulingPoint{current, true, PointKind::Access, step, kPending});
          }
          drive(forcing, 200);
        }) == 0);
  CHECK(forcing.outcome().completed == 1);
}

#endif  // !__SANITIZE_ADDRESS__

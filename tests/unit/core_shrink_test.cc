// The preemption strategy and the switch recording it is fed from (preemption_schedule.h):
// exact runs on simulated programs, and the round trip that shrinking relies on (a run recorded
// as switch points and fed back runs the same interleaving).
#include <catch2/catch.hpp>

#include "core_simulation.h"
#include "ctrlsched/preemption_schedule.h"

using namespace ctrlsched;

namespace {

class VectorSwitchSink final : public SwitchSink {
 public:
  void append(const SwitchPoint& p) override { points.push_back(p); }
  std::vector<SwitchPoint> points;
};

SwitchPoint preempt(ThreadId thread, std::uint64_t point, ThreadId target) {
  return make_switch_point(SwitchKind::Preempt, thread, point, target);
}

sim::Run run_plan(const sim::Program& program, std::vector<SwitchPoint> plan) {
  auto strategy = make_preemption_strategy(std::move(plan));
  return sim::simulate(program, *strategy);
}

using Executed = std::vector<ThreadId>;

}  // namespace

TEST_CASE("RunPosition counts each thread's points from the steps between questions", "[shrink]") {
  RunPosition position;
  const std::vector<Candidate> two = {{0, false}, {1, false}};
  CHECK(position.at_point({0, true, PointKind::Sync, 3, two}) == 3);  // T0 ran steps 1-3
  position.ran(1);
  CHECK(position.at_point({1, true, PointKind::Sync, 7, two}) == 4);  // T1 ran steps 4-7
  position.ran(0);
  CHECK(position.at_point({0, true, PointKind::Sync, 9, two}) == 5);  // T0 ran 8-9
  CHECK(position.running() == 0);
  CHECK(position.next_wake() == 1);
  CHECK(position.next_wake() == 2);
  CHECK(position.next_spurious(1) == 1);
}

TEST_CASE("without switch points the preemption strategy never preempts", "[shrink]") {
  const sim::Run run = run_plan(sim::uniform_program(3, 4), {});
  CHECK(run.executed == Executed{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
  CHECK(run.preemptions == 0);
  CHECK_FALSE(run.invalid_answer);
}

TEST_CASE("a Preempt entry switches at that point of that thread, nowhere else", "[shrink]") {
  const sim::Program program = sim::uniform_program(3, 4);
  auto strategy = make_preemption_strategy({preempt(2, 2, 1), preempt(0, 2, 2)});
  const sim::Run both = sim::simulate(program, *strategy);
  CHECK(both.executed == Executed{0, 2, 2, 1, 1, 1, 1, 0, 0, 0, 2, 2});
  CHECK(both.preemptions == 2);
  CHECK(strategy->preemptions() == 2);

  // Without the second, the first still happens at the same place.
  const sim::Run first = run_plan(program, {preempt(0, 2, 2)});
  CHECK(first.executed == Executed{0, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1, 1});
  CHECK(first.preemptions == 1);

  // A target that cannot run (T5 does not exist): the lowest-id other candidate instead.
  const sim::Run elsewhere = run_plan(program, {preempt(0, 2, 5)});
  CHECK(elsewhere.executed == Executed{0, 1, 1, 1, 1, 0, 0, 0, 2, 2, 2, 2});
  CHECK(elsewhere.preemptions == 1);
}

TEST_CASE("the non-preemptive default: round robin after a yield, lowest id after an exit", "[shrink]") {
  const sim::Program program = {{{PointKind::Yield}, {PointKind::Sync}}, {{PointKind::Sync}}, {{PointKind::Sync}}};
  const sim::Run run = run_plan(program, {});
  CHECK(run.executed == Executed{1, 0, 0, 2});
  CHECK(run.preemptions == 0);
}

TEST_CASE("a Free entry picks the thread at a block, exit or yield", "[shrink]") {
  const sim::Program program = {{{PointKind::Yield}, {PointKind::Sync}}, {{PointKind::Sync}}, {{PointKind::Sync}}};
  const sim::Run run = run_plan(program, {make_switch_point(SwitchKind::Free, 0, 1, 2)});
  CHECK(run.executed == Executed{2, 0, 0, 1});
}

TEST_CASE("the lease lasts up to the thread's next Preempt entry", "[shrink]") {
  auto strategy = make_preemption_strategy({preempt(0, 5, 1), preempt(1, 2, 0)});
  const std::vector<Candidate> two = {{0, false}, {1, false}};
  const SchedulingPoint at2{0, true, PointKind::Sync, 2, two};
  CHECK(strategy->next_thread(at2) == 0);
  CHECK(strategy->lease(at2) == 2);  // points 3 and 4 keep T0; point 5 is asked
  const SchedulingPoint at5{0, true, PointKind::Sync, 5, two};
  CHECK(strategy->next_thread(at5) == 1);
  const SchedulingPoint t1_at1{1, true, PointKind::Sync, 6, two};
  CHECK(strategy->next_thread(t1_at1) == 1);
  CHECK(strategy->lease(t1_at1) == 0);  // its entry is at the very next point
  const SchedulingPoint t1_at2{1, true, PointKind::Sync, 7, two};
  CHECK(strategy->next_thread(t1_at2) == 0);
  const SchedulingPoint t0_at6{0, true, PointKind::Sync, 8, two};
  CHECK(strategy->next_thread(t0_at6) == 0);
  CHECK(strategy->lease(t0_at6) == kUnboundedLease);
}

TEST_CASE("the switch log records exactly the preemptions and free choices", "[shrink]") {
  const sim::Program program = sim::uniform_program(3, 4);
  auto inner = make_preemption_strategy({preempt(2, 2, 1), preempt(0, 2, 2)});
  VectorSwitchSink sink;
  SwitchRecordingStrategy recorder(*inner, sink);
  sim::simulate(program, recorder);
  const std::vector<SwitchPoint> expected = {
      preempt(0, 2, 2),
      preempt(2, 2, 1),
      make_switch_point(SwitchKind::Free, 1, 4, 0),  // T1 exits at its 4th point: T0 next
      make_switch_point(SwitchKind::Free, 0, 5, 2),  // T0 exits: T2, the only one left
  };
  CHECK(sink.points == expected);
}

TEST_CASE("a run recorded as switch points and fed back runs the same interleaving", "[shrink]") {
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    Prng prng(seed);
    const sim::Program program = sim::random_program(prng, 5, 12);
    auto random = make_random_strategy(seed * 7 + 1, std::nullopt);
    VectorSwitchSink sink;
    SwitchRecordingStrategy recorder(*random, sink);
    const sim::Run original = sim::simulate(program, recorder);
    const sim::Run rebuilt = run_plan(program, sink.points);
    INFO("seed " << seed);
    REQUIRE_FALSE(original.invalid_answer);
    CHECK(rebuilt.executed == original.executed);
    CHECK(rebuilt.answers == original.answers);
    CHECK(rebuilt.preemptions == original.preemptions);
    const auto preempts = static_cast<std::uint64_t>(std::count_if(
        sink.points.begin(), sink.points.end(), [](const SwitchPoint& p) { return p.switch_kind() == SwitchKind::Preempt; }));
    CHECK(preempts == original.preemptions);
  }
}

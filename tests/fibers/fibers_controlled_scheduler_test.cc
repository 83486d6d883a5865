// controlled_scheduler (ctrlsched/boost_fiber.hpp) on small Boost.Fiber programs: a lost update
// that needs a switch at one yield, and the same program made correct with a fiber mutex.
#include <catch2/catch.hpp>

#include <boost/fiber/all.hpp>
#include <cstdint>
#include <chrono>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include <set>
#include <vector>

#include "ctrlsched/boost_fiber.hpp"

namespace {

using ctrlsched::Decision;
using ctrlsched::RunSpec;
using ctrlsched::StrategyKind;
using ctrlsched::fibers::FiberRun;
using ctrlsched::fibers::run_controlled;

RunSpec random_spec(std::uint64_t seed) {
  RunSpec spec;
  spec.seed = seed;
  spec.strategy = StrategyKind::Random;
  return spec;
}

RunSpec pct_spec(std::uint64_t seed) {
  RunSpec spec;
  spec.seed = seed;
  spec.strategy = StrategyKind::Pct;
  spec.pct_depth = 2;
  spec.pct_steps = 8;
  return spec;
}

// Two fibers add 1 to a counter. The first reads, yields, then writes back: if the second runs
// its whole increment during that yield, one increment is lost. Returns the final counter.
int lost_update_program() {
  int counter = 0;
  boost::fibers::fiber reader_writer([&] {
    const int read = counter;
    boost::this_fiber::yield();
    counter = read + 1;
  });
  boost::fibers::fiber incrementer([&] { counter += 1; });
  reader_writer.join();
  incrementer.join();
  return counter;
}

// The same increments, each inside a fiber mutex, over three fibers with two yields each.
int locked_program() {
  int counter = 0;
  boost::fibers::mutex lock;
  std::vector<boost::fibers::fiber> fibers;
  for (int i = 0; i < 3; ++i) {
    fibers.emplace_back([&] {
      for (int round = 0; round < 2; ++round) {
        std::lock_guard guard(lock);
        const int read = counter;
        boost::this_fiber::yield();
        counter = read + 1;
      }
    });
  }
  for (auto& fiber : fibers) fiber.join();
  return counter;
}

struct Outcome {
  int counter;
  FiberRun run;
};

Outcome run_lost_update(const RunSpec& spec) {
  int counter = -1;
  FiberRun run = run_controlled(spec, [&] { counter = lost_update_program(); });
  return {counter, std::move(run)};
}

}  // namespace

TEST_CASE("the lost update fails for some seeds and passes for others", "[fibers]") {
  for (const auto& make_spec : {random_spec, pct_spec}) {
    int failures = 0;
    int passes = 0;
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
      const Outcome outcome = run_lost_update(make_spec(seed));
      REQUIRE((outcome.counter == 1 || outcome.counter == 2));
      (outcome.counter == 1 ? failures : passes) += 1;
      CHECK(outcome.run.fibers == 3);  // main + two fibers
    }
    INFO("strategy " << to_string(make_spec(0).strategy) << ": " << failures << " failing seeds of 100");
    CHECK(failures > 0);
    CHECK(passes > 0);
  }
}

TEST_CASE("a seed gives the same result and the same schedule hash every time", "[fibers]") {
  for (const auto& make_spec : {random_spec, pct_spec}) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const Outcome first = run_lost_update(make_spec(seed));
      for (int again = 0; again < 3; ++again) {
        const Outcome repeat = run_lost_update(make_spec(seed));
        CHECK(repeat.counter == first.counter);
        CHECK(repeat.run.schedule_hash == first.run.schedule_hash);
        CHECK(repeat.run.decisions == first.run.decisions);
        CHECK(repeat.run.handle() == first.run.handle());
      }
    }
  }
}

TEST_CASE("a failing seed's decisions and its handle both reproduce the failure", "[fibers]") {
  std::uint64_t seed = 0;
  Outcome failing = run_lost_update(random_spec(seed));
  while (failing.counter != 1) failing = run_lost_update(random_spec(++seed));
  REQUIRE(!failing.run.decisions.empty());

  // By decisions: the replay strategy follows the log and never diverges.
  int counter = -1;
  const FiberRun replayed =
      run_controlled(random_spec(seed), failing.run.decisions, [&] { counter = lost_update_program(); });
  CHECK(counter == 1);
  CHECK_FALSE(replayed.divergence.has_value());
  CHECK(replayed.decisions == failing.run.decisions);
  CHECK(replayed.schedule_hash == failing.run.schedule_hash);

  // By handle: "<seed>:random@<hash>" parses back to a spec whose hash this run must match.
  const std::string handle = failing.run.handle();
  CHECK(handle == std::to_string(seed) + ":random@" + ctrlsched::format_hash(failing.run.schedule_hash));
  const auto spec = ctrlsched::parse_handle(handle);
  REQUIRE(spec.has_value());
  const Outcome by_handle = run_lost_update(*spec);
  CHECK(by_handle.counter == 1);
  CHECK_FALSE(by_handle.run.hash_mismatch);
}

TEST_CASE("replaying another schedule is reported as a divergence or a hash mismatch", "[fibers]") {
  std::uint64_t seed = 0;
  Outcome failing = run_lost_update(random_spec(seed));
  while (failing.counter != 1) failing = run_lost_update(random_spec(++seed));
  std::uint64_t other = 0;
  Outcome passing = run_lost_update(random_spec(other));
  while (passing.counter != 2) passing = run_lost_update(random_spec(++other));

  RunSpec wrong_hash = random_spec(seed);
  wrong_hash.expected_hash = passing.run.schedule_hash;
  CHECK(run_lost_update(wrong_hash).run.hash_mismatch);

  std::vector<Decision> impossible = failing.run.decisions;
  impossible.front().value = 7;  // no fiber 7 exists
  int counter = -1;
  const FiberRun replayed = run_controlled(random_spec(seed), impossible, [&] { counter = lost_update_program(); });
  REQUIRE(replayed.divergence.has_value());
  CHECK(replayed.divergence->decision_index == 0);
}

TEST_CASE("the mutex-protected program passes 1000 seeds under both strategies", "[fibers]") {
  for (const auto& make_spec : {random_spec, pct_spec}) {
    std::set<std::uint64_t> hashes;
    int wrong = 0;
    for (std::uint64_t seed = 0; seed < 1000; ++seed) {
      int counter = -1;
      const FiberRun run = run_controlled(make_spec(seed), [&] { counter = locked_program(); });
      wrong += counter != 6;
      wrong += run.fibers != 4;  // blocking on the mutex does not renumber a fiber
      hashes.insert(run.schedule_hash);
    }
    CHECK(wrong == 0);
    // The seeds explored different interleavings, not one schedule a thousand times.
    CHECK(hashes.size() > 10);
  }
}

TEST_CASE("fibers are numbered in order of first appearance, never reusing a number", "[fibers]") {
  std::vector<ctrlsched::ThreadId> seen;
  const FiberRun run = run_controlled(random_spec(3), [&] {
    seen.push_back(ctrlsched::fibers::controlled_scheduler::current()->active_fiber_id());
    for (int i = 0; i < 5; ++i) {
      // Launched and joined one at a time: each new fiber may reuse the memory of the last one.
      boost::fibers::fiber([&] {
        seen.push_back(ctrlsched::fibers::controlled_scheduler::current()->active_fiber_id());
      }).join();
    }
  });
  CHECK(seen == std::vector<ctrlsched::ThreadId>{0, 1, 2, 3, 4, 5});
  CHECK(run.fibers == 6);
  CHECK(run.decisions.empty());  // only one fiber was ever ready at a time
}

namespace {

// Picks the first candidate and remembers every question, to pin what the algorithm asks.
class SpyStrategy final : public ctrlsched::Strategy {
 public:
  struct Point {
    ctrlsched::ThreadId current;
    bool current_enabled;
    ctrlsched::PointKind kind;
    std::uint64_t step;
    std::vector<ctrlsched::ThreadId> candidates;
    friend bool operator==(const Point&, const Point&) = default;
  };
  SpyStrategy(std::vector<Point>& points, std::vector<std::pair<ctrlsched::ThreadId, ctrlsched::ThreadId>>& created)
      : points_(points), created_(created) {}
  void on_thread_created(ctrlsched::ThreadId child, ctrlsched::ThreadId parent) override {
    created_.emplace_back(child, parent);
  }
  ctrlsched::ThreadId next_thread(const ctrlsched::SchedulingPoint& point) override {
    Point seen{point.current, point.current_enabled, point.kind, point.step, {}};
    for (const auto& candidate : point.candidates) seen.candidates.push_back(candidate.tid);
    points_.push_back(seen);
    return point.candidates.front().tid;
  }
  std::size_t pick_waiter(ctrlsched::WakeKind, std::span<const ctrlsched::ThreadId>) override { return 0; }
  bool spurious_wakeup(ctrlsched::ThreadId) override { return false; }
  std::uint64_t preemptions() const override { return 0; }

 private:
  std::vector<Point>& points_;
  std::vector<std::pair<ctrlsched::ThreadId, ctrlsched::ThreadId>>& created_;
};

}  // namespace

TEST_CASE("points: yields keep the yielder a candidate, blocking and ending do not", "[fibers]") {
  using ctrlsched::PointKind;
  using Point = SpyStrategy::Point;
  std::vector<Point> points;
  std::vector<std::pair<ctrlsched::ThreadId, ctrlsched::ThreadId>> created;
  boost::fibers::use_scheduling_algorithm<ctrlsched::fibers::controlled_scheduler>(
      random_spec(0), std::make_unique<SpyStrategy>(points, created));
  boost::fibers::fiber yielder([] { boost::this_fiber::yield(); });
  boost::fibers::fiber plain([] {});
  yielder.join();
  plain.join();
  const FiberRun run = ctrlsched::fibers::controlled_scheduler::current()->result();
  boost::fibers::use_scheduling_algorithm<boost::fibers::algo::round_robin>();

  const std::vector<Point> expected{
      {0, false, PointKind::Blocked, 1, {1, 2}},  // main joins the yielder
      {1, true, PointKind::Yield, 2, {1, 2}},     // the yielder yields: it may go on
      {1, false, PointKind::Blocked, 3, {0, 2}},  // the yielder ends, main is woken
      {0, false, PointKind::Blocked, 4, {2}},     // main joins the plain fiber
      {2, false, PointKind::Blocked, 5, {0}},     // the plain fiber ends
  };
  CHECK(points == expected);
  CHECK(created == std::vector<std::pair<ctrlsched::ThreadId, ctrlsched::ThreadId>>{
                       {0, ctrlsched::kNoThread}, {1, 0}, {2, 0}});
  CHECK(run.steps == 5);
  CHECK(run.decisions == std::vector<Decision>{{ctrlsched::DecisionKind::Schedule, 1},
                                               {ctrlsched::DecisionKind::Schedule, 1},
                                               {ctrlsched::DecisionKind::Schedule, 0}});
}

TEST_CASE("a sleeping fiber wakes up while another spins on yield", "[fibers]") {
  // The decision is taken in the dispatcher, which wakes sleepers first: without that, the
  // spinning fiber would be the only candidate forever.
  bool flag = false;
  int spins = 0;
  const FiberRun run = run_controlled(random_spec(1), [&] {
    boost::fibers::fiber sleeper([&] {
      boost::this_fiber::sleep_for(std::chrono::milliseconds(2));
      flag = true;
    });
    boost::fibers::fiber spinner([&] {
      while (!flag) {
        ++spins;
        boost::this_fiber::yield();
      }
    });
    sleeper.join();
    spinner.join();
  });
  CHECK(flag);
  CHECK(spins > 0);
  CHECK(run.fibers == 3);
}

// ctrlsched::fibers from an installed package: a read-yield-write race between two fibers must
// fail for some seeds, pass for others, and replay its failures from the recorded decisions.
#include <boost/fiber/all.hpp>
#include <cstdio>

#include "ctrlsched/boost_fiber.hpp"

namespace {

int racy_increments() {
  int counter = 0;
  boost::fibers::fiber slow([&] {
    const int read = counter;
    boost::this_fiber::yield();
    counter = read + 1;
  });
  boost::fibers::fiber fast([&] { counter += 1; });
  slow.join();
  fast.join();
  return counter;
}

}  // namespace

int main() {
  int failures = 0;
  int passes = 0;
  int replayed_failures = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    ctrlsched::RunSpec spec;
    spec.seed = seed;
    spec.strategy = ctrlsched::StrategyKind::Random;
    int counter = 0;
    const auto run = ctrlsched::fibers::run_controlled(spec, [&] { counter = racy_increments(); });
    if (counter == 2) {
      ++passes;
      continue;
    }
    ++failures;
    const auto replay = ctrlsched::fibers::run_controlled(spec, run.decisions, [&] { counter = racy_increments(); });
    replayed_failures += counter == 1 && replay.schedule_hash == run.schedule_hash;
  }
  std::printf("%d failing seeds, %d passing, %d failures replayed\n", failures, passes, replayed_failures);
  return failures > 0 && passes > 0 && replayed_failures == failures ? 0 : 1;
}

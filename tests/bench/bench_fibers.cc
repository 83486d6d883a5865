// Google Benchmark: the in-process engine (ctrlsched::explore).
//
//   InProcessSchedules   explores programs/two_threads_20_steps.c's test as a body: 2 threads,
//                        ~20 scheduling points per run, PCT with a fixed k (no calibration).
//                        items_per_second = schedules per second. run_fiber_benchmarks.sh times
//                        the C program under process-mode `ctrlsched` next to it.
//   EngineSwitch         two fibers ping-pong through two binary semaphores: every acquire blocks
//                        and forces a switch; reported per switch (including the point and the
//                        strategy call that choose it).
//   RawContextSwitch     two bare Boost.Context fibers resume each other: per switch.
#include <benchmark/benchmark.h>

#include <boost/context/fiber.hpp>

#include <mutex>

#include "ctrlsched/ctrlsched.hpp"

namespace {

void two_threads_20_steps() {
  ctrlsched::mutex lock;
  int counter = 0;
  auto worker = [&] {
    for (int i = 0; i < 4; ++i) {
      std::lock_guard<ctrlsched::mutex> guard(lock);
      ++counter;
    }
  };
  ctrlsched::thread a(worker), b(worker);
  a.join();
  b.join();
  ctrlsched::check(counter == 8, "lost update");
}

void InProcessSchedules(benchmark::State& state) {
  const auto seeds = static_cast<std::uint64_t>(state.range(0));
  std::uint64_t seed_start = 0;
  for (auto _ : state) {
    auto result = ctrlsched::explore({.seeds = seeds, .seed_start = seed_start, .pct_steps = 24,
                                      .honour_replay_env = false},
                                     two_threads_20_steps);
    if (!result.passed()) state.SkipWithError("a run failed");
    seed_start += seeds;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(InProcessSchedules)->Arg(1000)->Unit(benchmark::kMillisecond);

constexpr int kRounds = 10'000;

void EngineSwitch(benchmark::State& state) {
  for (auto _ : state) {
    ctrlsched::explore({.seeds = 1, .strategy = ctrlsched::StrategyKind::Random, .honour_replay_env = false}, [] {
      ctrlsched::binary_semaphore ping(0), pong(0);
      ctrlsched::thread partner([&] {
        for (int i = 0; i < kRounds; ++i) {
          ping.acquire();
          pong.release();
        }
      });
      for (int i = 0; i < kRounds; ++i) {
        ping.release();
        pong.acquire();
      }
      partner.join();
    });
  }
  // Two forced switches per round.
  state.SetItemsProcessed(state.iterations() * kRounds * 2);
}
BENCHMARK(EngineSwitch)->Unit(benchmark::kMillisecond);

void RawContextSwitch(benchmark::State& state) {
  namespace ctx = boost::context;
  bool stop = false;
  ctx::fiber partner([&stop](ctx::fiber&& back) {
    while (!stop) back = std::move(back).resume();
    return std::move(back);
  });
  for (auto _ : state) {
    for (int i = 0; i < kRounds; ++i) partner = std::move(partner).resume();
  }
  stop = true;
  partner = std::move(partner).resume();
  state.SetItemsProcessed(state.iterations() * kRounds * 2);  // there and back
}
BENCHMARK(RawContextSwitch)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

// A Boost.Fiber program with an atomicity bug, explored in-process by ctrlsched's fiber
// scheduling algorithm (docs/boost-fiber.md). Fibers never run in parallel, yet this program is
// racy: a fiber yields (here: to "log" the operation) between checking a balance and withdrawing,
// and another fiber's withdrawal slips in between.
//
//   boost_fiber_race [seeds]        run seeds 0..seeds-1 (default 200) under the random walk;
//                                   print each distinct failure once with its handle; exit 1 if
//                                   any seed failed
//   boost_fiber_race <handle>       run that one seed again (e.g. 3:random@0123456789abcdef) and
//                                   say whether it followed the same schedule
#include <boost/fiber/all.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ctrlsched/boost_fiber.hpp"

namespace {

// Two customers withdraw 70 from a shared account of 100; the bank must never go negative.
int withdraw_twice() {
  int balance = 100;
  auto withdraw = [&balance](int amount) {
    if (balance >= amount) {
      boost::this_fiber::yield();  // e.g. write an audit record: another fiber may run here
      balance -= amount;
    }
  };
  boost::fibers::fiber alice(withdraw, 70);
  boost::fibers::fiber bob(withdraw, 70);
  alice.join();
  bob.join();
  return balance;
}

int replay(const std::string& handle) {
  std::string error;
  const auto spec = ctrlsched::parse_handle(handle, &error);
  if (!spec) {
    std::fprintf(stderr, "boost_fiber_race: bad handle: %s\n", error.c_str());
    return 2;
  }
  int balance = 0;
  const auto run = ctrlsched::fibers::run_controlled(*spec, [&] { balance = withdraw_twice(); });
  std::printf("replayed %s: balance %d (%s), %s\n", handle.c_str(), balance,
              balance < 0 ? "overdrawn" : "ok",
              run.hash_mismatch ? "schedule DIFFERS from the handle" : "same schedule");
  return balance < 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]).find(':') != std::string::npos) return replay(argv[1]);
  const std::uint64_t seeds = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200;
  std::uint64_t failures = 0;
  std::string first_handle;
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    ctrlsched::RunSpec spec;
    spec.seed = seed;
    spec.strategy = ctrlsched::StrategyKind::Random;
    int balance = 0;
    const auto run = ctrlsched::fibers::run_controlled(spec, [&] { balance = withdraw_twice(); });
    if (balance >= 0) continue;
    if (++failures == 1) first_handle = run.handle();
  }
  if (failures == 0) {
    std::printf("PASS  %llu seeds\n", static_cast<unsigned long long>(seeds));
    return 0;
  }
  std::printf("FAIL  %llu of %llu seeds overdrew the account, first: %s\n",
              static_cast<unsigned long long>(failures), static_cast<unsigned long long>(seeds),
              first_handle.c_str());
  std::printf("      replay:  %s %s\n", argv[0], first_handle.c_str());
  return 1;
}

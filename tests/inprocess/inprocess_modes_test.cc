// Fork mode, instrumented code, virtual time, and the rest of the primitives.
#include <catch2/catch.hpp>

#include <string>

#include "ctrlsched/ctrlsched.hpp"

extern "C" {
extern int instrumented_counter;
void instrumented_increment(void);
}

namespace {
int g_global_runs = 0;  // plain global state: survives between in-process runs
}

TEST_CASE("instrumented code gets access points inside explore", "[inprocess][instrumented]") {
  auto body = [] {
    instrumented_counter = 0;
    ctrlsched::thread a(instrumented_increment), b(instrumented_increment);
    a.join();
    b.join();
    ctrlsched::check(instrumented_counter == 2, "lost update");
  };
  auto accesses = ctrlsched::explore({.seeds = 300}, body);
  REQUIRE(accesses.first_failure);
  CHECK(accesses.first_failure->message == "T0: lost update");
  // With points at synchronization only, the race is invisible.
  auto sync_only = ctrlsched::explore({.seeds = 300, .points = ctrlsched::PointsMode::Sync}, body);
  CHECK(sync_only.passed());
  // Outside explore the hooks are inert.
  instrumented_counter = 0;
  instrumented_increment();
  CHECK(instrumented_counter == 1);
}

TEST_CASE("fork mode: each run in a child; crashes are failures; globals stay untouched", "[inprocess][fork]") {
  g_global_runs = 0;
  auto counted = ctrlsched::explore({.seeds = 20, .strategy = ctrlsched::StrategyKind::Random,
                                     .fork_each_iteration = true},
                                    [] {
                                      ++g_global_runs;
                                      ctrlsched::check(g_global_runs == 1, "a previous run's global leaked in");
                                    });
  CHECK(counted.passed());
  CHECK(counted.runs == 20);
  CHECK(g_global_runs == 0);

  auto crash = ctrlsched::explore({.seeds = 50, .strategy = ctrlsched::StrategyKind::Random,
                                   .fork_each_iteration = true},
                                  [] {
                                    ctrlsched::shared<int*> pointer{nullptr};
                                    int value = 7;
                                    ctrlsched::thread setter([&] { pointer = &value; });
                                    int* seen = pointer;
                                    setter.join();
                                    if (*static_cast<volatile int*>(seen) != 7) std::abort();
                                  });
  REQUIRE(crash.first_failure);
  CHECK(crash.first_failure->kind == ctrlsched::FailureKind::Crash);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer catches the SIGSEGV in the child, reports it and exits with status 1.
  CHECK(crash.first_failure->message == "the run's child process exited with status 1");
#else
  CHECK(crash.first_failure->message == "the run's child process died of signal 11 (Segmentation fault)");
#endif
  // The same failing seed without fork mode gives the same decisions up to the crash point: the
  // fork child reports nothing, so only the handle (without hash) is comparable.
  CHECK(crash.first_failure->handle.rfind(std::to_string(crash.first_failure->seed) + ":random", 0) == 0);

  auto failing = ctrlsched::explore({.seeds = 200, .fork_each_iteration = true}, [] {
    ctrlsched::shared<int> counter{0};
    ctrlsched::thread a([&] { counter += 1; }), b([&] { counter += 1; });
    a.join();
    b.join();
    ctrlsched::check(counter.unsafe_ref() == 2, "lost update");
  });
  REQUIRE(failing.first_failure);
  auto in_process = ctrlsched::explore({.seeds = 200}, [] {
    ctrlsched::shared<int> counter{0};
    ctrlsched::thread a([&] { counter += 1; }), b([&] { counter += 1; });
    a.join();
    b.join();
    ctrlsched::check(counter.unsafe_ref() == 2, "lost update");
  });
  REQUIRE(in_process.first_failure);
  CHECK(failing.first_failure->handle == in_process.first_failure->handle);
  CHECK(failing.first_failure->decisions == in_process.first_failure->decisions);
  CHECK(failing.first_failure->message == "T0: lost update");
}

TEST_CASE("timed waits use virtual time", "[inprocess][time]") {
  auto result = ctrlsched::explore({.seeds = 200, .stop_after = 0}, [] {
    ctrlsched::mutex m;
    ctrlsched::condition_variable cv;
    bool ready = false;
    ctrlsched::thread setter([&] {
      std::lock_guard<ctrlsched::mutex> g(m);
      ready = true;
      cv.notify_one();
    });
    const auto start = ctrlsched::virtual_clock::now();
    bool got = false;
    {
      std::unique_lock<ctrlsched::mutex> lock(m);
      got = cv.wait_for(lock, std::chrono::seconds(5), [&] { return ready; });
    }
    const auto waited = ctrlsched::virtual_clock::now() - start;
    setter.join();
    // Either the signal came first (no virtual time passed) or the timeout fired (exactly 5 s).
    ctrlsched::check(got || waited == std::chrono::seconds(5), "timeout without 5 virtual seconds");
    ctrlsched::check(!got || waited == std::chrono::seconds(0), "signal after virtual time passed");
    ctrlsched::check(got, "timed out");  // the interleaving where the timeout fires first
  });
  REQUIRE(result.failures > 0);
  CHECK(result.failures < result.runs);
  CHECK(result.first_failure->message == "T0: timed out");
}

TEST_CASE("semaphore, barrier, shared_mutex, recursive_mutex and atomics", "[inprocess][primitives]") {
  auto result = ctrlsched::explore({.seeds = 500}, [] {
    ctrlsched::counting_semaphore<2> slots(2);
    ctrlsched::barrier<> phase(3);
    ctrlsched::shared_mutex table_lock;
    ctrlsched::recursive_mutex nested;
    ctrlsched::atomic<int> inside{0}, max_inside{0}, total{0};
    int table = 0;
    auto worker = [&] {
      slots.acquire();
      int now = ++inside;
      int seen = max_inside.load();
      while (now > seen && !max_inside.compare_exchange_weak(seen, now)) {
      }
      --inside;
      slots.release();
      phase.arrive_and_wait();
      {
        std::shared_lock<ctrlsched::shared_mutex> read(table_lock);
        total += table;
      }
      {
        std::lock_guard<ctrlsched::recursive_mutex> a(nested);
        std::lock_guard<ctrlsched::recursive_mutex> b(nested);
        std::lock_guard<ctrlsched::shared_mutex> write(table_lock);
        ++table;
      }
    };
    ctrlsched::thread t1(worker), t2(worker), t3(worker);
    t1.join();
    t2.join();
    t3.join();
    ctrlsched::check(max_inside.load() <= 2, "semaphore let three in");
    ctrlsched::check(table == 3, "lost table update");
    ctrlsched::check(total.load() <= 3, "read after the barrier saw too much");
  });
  CHECK(result.passed());
  INFO(result.report());
}

TEST_CASE("a thread destroyed while joinable is a misuse", "[inprocess][misuse]") {
  auto result = ctrlsched::explore({.seeds = 3}, [] {
    ctrlsched::thread t([] {});
  });
  REQUIRE(result.first_failure);
  CHECK(result.first_failure->kind == ctrlsched::FailureKind::Misuse);
  CHECK(result.first_failure->message ==
        "T0: T0 destroyed a joinable ctrlsched::thread (T1) without join or detach");
}

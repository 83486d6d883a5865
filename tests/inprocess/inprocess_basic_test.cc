// The in-process engine on small bodies: bugs found, replay, failures of every kind reported
// with a usable process afterwards.
#include <catch2/catch.hpp>

#include <cassert>
#include <cstdlib>
#include <stdexcept>

#include "ctrlsched/ctrlsched.hpp"

namespace {

// Two threads each add 1 to a shared counter without a lock: the read and the write are separate
// points, so some interleavings lose an update.
void lost_update_body() {
  ctrlsched::shared<int> counter{0};
  ctrlsched::thread a([&] { counter += 1; });
  ctrlsched::thread b([&] { counter += 1; });
  a.join();
  b.join();
  CHECK_OR_THROW(counter.unsafe_ref() == 2);
}

void locked_update_body() {
  ctrlsched::shared<int> counter{0};
  ctrlsched::mutex m;
  auto add = [&] {
    std::lock_guard<ctrlsched::mutex> guard(m);
    counter += 1;
  };
  ctrlsched::thread a(add), b(add);
  a.join();
  b.join();
  CHECK_OR_THROW(counter.unsafe_ref() == 2);
}

}  // namespace

TEST_CASE("a lost update is found and named by seed and handle", "[inprocess]") {
  for (auto strategy : {ctrlsched::StrategyKind::Pct, ctrlsched::StrategyKind::Random}) {
    auto result = ctrlsched::explore({.seeds = 200, .strategy = strategy}, lost_update_body);
    REQUIRE(result.failures == 1);
    REQUIRE(result.first_failure);
    const auto& f = *result.first_failure;
    CHECK(f.kind == ctrlsched::FailureKind::Check);
    CHECK(f.message == "T0: CHECK_OR_THROW(counter.unsafe_ref() == 2)");
    CHECK(result.runs == f.seed + 1);
    CHECK(f.handle.rfind(std::to_string(f.seed) + ":", 0) == 0);
    CHECK(!f.decisions.empty());
    CHECK(f.schedule_text.rfind("ctrlsched-schedule 1\n", 0) == 0);
  }
}

TEST_CASE("the locked version passes every seed", "[inprocess]") {
  auto result = ctrlsched::explore({.seeds = 2000}, locked_update_body);
  CHECK(result.passed());
  CHECK(result.runs == 2000);
  CHECK(result.report() == "ctrlsched: 2000 runs passed");
}

TEST_CASE("the same seed gives the same schedule", "[inprocess]") {
  auto first = ctrlsched::explore({.seeds = 100, .stop_after = 0}, lost_update_body);
  auto second = ctrlsched::explore({.seeds = 100, .stop_after = 0}, lost_update_body);
  REQUIRE(first.failures > 0);
  CHECK(first.failures == second.failures);
  CHECK(first.first_failure->handle == second.first_failure->handle);
  CHECK(first.first_failure->decisions == second.first_failure->decisions);
}

TEST_CASE("CTRLSCHED_REPLAY runs just the named run", "[inprocess]") {
  auto found = ctrlsched::explore({.seeds = 200}, lost_update_body);
  REQUIRE(found.first_failure);
  setenv("CTRLSCHED_REPLAY", found.first_failure->handle.c_str(), 1);
  auto replayed = ctrlsched::explore({.seeds = 200}, lost_update_body);
  auto passing = ctrlsched::explore({.seeds = 200}, locked_update_body);
  unsetenv("CTRLSCHED_REPLAY");
  CHECK(replayed.replayed);
  CHECK(replayed.runs == 1);
  REQUIRE(replayed.first_failure);
  CHECK(replayed.first_failure->handle == found.first_failure->handle);
  CHECK(replayed.first_failure->decisions == found.first_failure->decisions);
  // The same handle on different code: its schedule hash no longer matches.
  CHECK(passing.runs == 1);
  REQUIRE(passing.first_failure);
  CHECK(passing.first_failure->kind == ctrlsched::FailureKind::Divergence);
}

TEST_CASE("a deadlock names who waits for what, and the next explore works", "[inprocess]") {
  auto result = ctrlsched::explore({.seeds = 500}, [] {
    ctrlsched::mutex a, b;
    ctrlsched::thread t1([&] {
      std::lock_guard<ctrlsched::mutex> x(a);
      std::lock_guard<ctrlsched::mutex> y(b);
    });
    ctrlsched::thread t2([&] {
      std::lock_guard<ctrlsched::mutex> y(b);
      std::lock_guard<ctrlsched::mutex> x(a);
    });
    t1.join();
    t2.join();
  });
  REQUIRE(result.first_failure);
  const auto& f = *result.first_failure;
  CHECK(f.kind == ctrlsched::FailureKind::Deadlock);
  CHECK(f.message ==
        "deadlock: every thread waits:\n"
        "  T0 waits for T1 to finish (join)\n"
        "  T1 waits for mutex #2 held by T2\n"
        "  T2 waits for mutex #1 held by T1");
  CHECK(ctrlsched::explore({.seeds = 300}, locked_update_body).passed());
}

TEST_CASE("an exception escaping a thread is reported", "[inprocess]") {
  int constructed = 0;
  int destroyed = 0;
  struct Counted {
    int* made;
    int* n;
    Counted(int* c, int* d) : made(c), n(d) { ++*made; }
    ~Counted() { ++*n; }
  };
  auto result = ctrlsched::explore({.seeds = 5}, [&] {
    ctrlsched::mutex m;
    ctrlsched::thread t([&] {
      Counted c(&constructed, &destroyed);
      throw std::runtime_error("boom");
    });
    ctrlsched::thread u([&] {
      Counted c(&constructed, &destroyed);
      std::lock_guard<ctrlsched::mutex> g(m);
      ctrlsched::this_thread::yield();
    });
    t.join();
    u.join();
  });
  REQUIRE(result.first_failure);
  CHECK(result.first_failure->kind == ctrlsched::FailureKind::Exception);
  CHECK(result.first_failure->message == "T1: exception escaped: std::runtime_error: boom");
  CHECK(result.runs == 1);
  // Every local of every run was destroyed, including those of threads the teardown unwound.
  CHECK(constructed > 0);
  CHECK(destroyed == constructed);
  CHECK(ctrlsched::explore({.seeds = 300}, locked_update_body).passed());
}

TEST_CASE("a run longer than max_steps is a hang", "[inprocess]") {
  auto result = ctrlsched::explore({.seeds = 3, .max_steps = 500}, [] {
    ctrlsched::atomic<bool> stop{false};
    ctrlsched::thread spinner([&] {
      while (!stop.load()) {
      }
    });
    spinner.join();  // never: nobody sets stop
    stop = true;
  });
  REQUIRE(result.first_failure);
  CHECK(result.first_failure->kind == ctrlsched::FailureKind::Hang);
  CHECK(result.first_failure->message.rfind("hang: more than 500 scheduling steps", 0) == 0);
}

TEST_CASE("assert() inside explore fails the run instead of aborting", "[inprocess]") {
  auto result = ctrlsched::explore({.seeds = 200, .strategy = ctrlsched::StrategyKind::Random}, [] {
    ctrlsched::shared<int> x{0};
    ctrlsched::thread t([&] { x = 1; });
    int seen = x;
    t.join();
    assert(seen == 0);
  });
  REQUIRE(result.first_failure);
  CHECK(result.first_failure->kind == ctrlsched::FailureKind::Assertion);
  CHECK(result.first_failure->message.find("Assertion `seen == 0' failed.") != std::string::npos);
}

TEST_CASE("ctrlsched::check outside explore throws", "[inprocess]") {
  CHECK_THROWS_AS(ctrlsched::check(false, "nope"), ctrlsched::check_failed);
  CHECK_NOTHROW(ctrlsched::check(true));
}

TEST_CASE("primitives outside explore behave like std", "[inprocess]") {
  ctrlsched::mutex m;
  ctrlsched::condition_variable cv;
  ctrlsched::atomic<int> n{0};
  bool ready = false;
  ctrlsched::thread t([&] {
    n.fetch_add(5);
    std::lock_guard<ctrlsched::mutex> g(m);
    ready = true;
    cv.notify_one();
  });
  {
    std::unique_lock<ctrlsched::mutex> lock(m);
    cv.wait(lock, [&] { return ready; });
  }
  t.join();
  CHECK(n.load() == 5);
}

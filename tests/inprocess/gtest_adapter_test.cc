// The GoogleTest adapter: failures inside explored threads are intercepted and fail the run (not
// the test); a fatal one returns from the thread's function; the test fails only through the
// EXPECT_EXPLORE_PASSES summary.
#include "ctrlsched/gtest.hpp"

#include <gtest/gtest-spi.h>

namespace {

void racy_body() {
  ctrlsched::shared<int> counter{0};
  ctrlsched::thread a([&] { counter += 1; }), b([&] { counter += 1; });
  a.join();
  b.join();
  EXPECT_EQ(counter.unsafe_ref(), 2) << "lost update";
}

}  // namespace

TEST(GtestAdapter, NonFatalFailureInTheBodyFailsTheRun) {
  const auto result = ctrlsched::gtest::explore({.seeds = 200}, racy_body);
  ASSERT_TRUE(result.first_failure.has_value());
  EXPECT_EQ(result.first_failure->kind, ctrlsched::FailureKind::Check);
  EXPECT_NE(result.first_failure->message.find("lost update"), std::string::npos);
  EXPECT_EQ(result.first_failure->message.rfind("T0: ", 0), 0u);
  EXPECT_EQ(result.failures, 1u);
}

TEST(GtestAdapter, FatalFailureInAThreadReturnsFromIt) {
  int after_assert = 0;
  const auto result = ctrlsched::gtest::explore({.seeds = 3}, [&] {
    ctrlsched::thread t([&] {
      ASSERT_EQ(1, 2) << "fatal in a thread";
      ++after_assert;
    });
    t.join();
  });
  ASSERT_TRUE(result.first_failure.has_value());
  EXPECT_NE(result.first_failure->message.find("fatal in a thread"), std::string::npos);
  EXPECT_EQ(result.first_failure->message.rfind("T1: ", 0), 0u);
  EXPECT_EQ(after_assert, 0);
}

TEST(GtestAdapter, PassingBodyPasses) {
  EXPECT_EXPLORE_PASSES({.seeds = 500}, [] {
    ctrlsched::mutex m;
    int counter = 0;
    auto add = [&] {
      std::lock_guard<ctrlsched::mutex> g(m);
      ++counter;
    };
    ctrlsched::thread a(add), b(add);
    a.join();
    b.join();
    EXPECT_EQ(counter, 2);
  });
}

TEST(GtestAdapter, FailingExplorationFailsTheTestOnceWithTheReplayCommand) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    EXPECT_EXPLORE_PASSES({.seeds = 200}, racy_body);
  }
  ASSERT_EQ(failures.size(), 1);
  const std::string message = failures.GetTestPartResult(0).message();
  EXPECT_NE(message.find("replay: CTRLSCHED_REPLAY='"), std::string::npos) << message;
  // The filter is one shell word, quoted only when it holds characters a shell would interpret.
  EXPECT_NE(message.find("--gtest_filter=GtestAdapter.FailingExplorationFailsTheTestOnceWithTheReplayCommand"),
            std::string::npos)
      << message;
}

// GoogleTest adapter for ctrlsched::explore.
//
//   TEST(Bank, TransferKeepsTheTotal) {
//     EXPECT_EXPLORE_PASSES({.seeds = 10000}, [] { ...; ASSERT_EQ(total, 100); });
//   }
//
// While exploring, every GoogleTest failure (EXPECT_* and ASSERT_*, in any explored thread) is
// intercepted: it fails the current run (a fatal one also returns from the thread's function, as
// ASSERT_* does) and is not reported to the test. Once a run fails, the test fails once, with
// the seed, that failure and the command that replays it (CTRLSCHED_REPLAY=<handle>).
#pragma once

#include <errno.h>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "ctrlsched/ctrlsched.hpp"
#include "ctrlsched/inprocess/rerun_command.hpp"

namespace ctrlsched::gtest {

class FailureInterceptor : public ::testing::ScopedFakeTestPartResultReporter {
 public:
  FailureInterceptor()
      : ::testing::ScopedFakeTestPartResultReporter(INTERCEPT_ONLY_CURRENT_THREAD, &ignored_) {}
  void ReportTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::string text = result.file_name() ? result.file_name() : "?";
    text += ":" + std::to_string(result.line_number()) + ": " + result.message();
    note_failure(FailureKind::Check, std::move(text));
  }

 private:
  ::testing::TestPartResultArray ignored_;
};

inline ExploreResult explore(ExploreOptions options, std::function<void()> body) {
  FailureInterceptor interceptor;
  return ctrlsched::explore(std::move(options), std::move(body));
}

inline std::string failure_text(const ExploreResult& result) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (test == nullptr) return result.report();
  // GoogleTest prints failure messages unwrapped, so the replay line stays one pasteable line.
  return result.report(shell_word(program_invocation_name) + " " +
                       shell_word(std::string("--gtest_filter=") + test->test_suite_name() + "." + test->name()));
}

}  // namespace ctrlsched::gtest

// EXPECT_: the test continues after a failing exploration; ASSERT_: it returns.
#define EXPECT_EXPLORE_PASSES(...)                                                      \
  do {                                                                                  \
    const ::ctrlsched::ExploreResult ctrlsched_result_ = ::ctrlsched::gtest::explore(__VA_ARGS__); \
    if (!ctrlsched_result_.passed()) ADD_FAILURE() << ::ctrlsched::gtest::failure_text(ctrlsched_result_); \
  } while (false)
#define ASSERT_EXPLORE_PASSES(...)                                                      \
  do {                                                                                  \
    const ::ctrlsched::ExploreResult ctrlsched_result_ = ::ctrlsched::gtest::explore(__VA_ARGS__); \
    if (!ctrlsched_result_.passed()) {                                                  \
      GTEST_FATAL_FAILURE_(::ctrlsched::gtest::failure_text(ctrlsched_result_).c_str()); \
    }                                                                                   \
  } while (false)

// Catch2 (v2) adapter for ctrlsched::explore.
//
//   TEST_CASE("transfer keeps the total") {
//     CTRLSCHED_REQUIRE_EXPLORE({.seeds = 10000}, [] { ...; REQUIRE(total == 100); });
//   }
//
// A failing REQUIRE inside the body (any thread) ends that run; a failing CHECK is noticed when
// it is the thread's last assertion (Catch2 v2 only exposes the last assertion's outcome), so
// prefer REQUIRE or ctrlsched::check inside explored code. On failure the test fails with the
// seed, the failure and the command that replays it (CTRLSCHED_REPLAY=<handle>).
#pragma once

#include <errno.h>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <utility>

#include "ctrlsched/ctrlsched.hpp"

namespace ctrlsched::catch2 {

inline ExploreOptions with_probe(ExploreOptions options) {
  options.failure_probe = [previous = std::move(options.failure_probe)]() -> std::optional<std::string> {
    if (previous)
      if (auto message = previous()) return message;
    Catch::IResultCapture& capture = Catch::getResultCapture();
    if (capture.lastAssertionPassed()) return std::nullopt;
    const Catch::AssertionResult* last = capture.getLastResult();
    if (last == nullptr) return std::string("a Catch2 assertion failed");
    std::string text = last->getSourceInfo().file;
    text += ":" + std::to_string(last->getSourceInfo().line) + ": " + last->getExpressionInMacro();
    if (last->hasExpandedExpression()) text += " with expansion " + last->getExpandedExpression();
    if (last->hasMessage()) text += ": " + last->getMessage();
    return text;
  };
  return options;
}

// Catch2 keeps "did the last assertion pass" across test cases; an explore must start from a
// passed state so that only its own assertions count.
inline void reset_last_assertion() {
  Catch::IResultCapture& capture = Catch::getResultCapture();
  if (!capture.lastAssertionPassed()) capture.assertionPassed();
}

inline ExploreResult explore(ExploreOptions options, std::function<void()> body) {
  reset_last_assertion();
  return ctrlsched::explore(with_probe(std::move(options)), [&body] {
    reset_last_assertion();
    body();
  });
}

inline std::string failure_text(const ExploreResult& result) {
  return result.report(std::string(program_invocation_name) + " \"" +
                       Catch::getResultCapture().getCurrentTestName() + "\"");
}

}  // namespace ctrlsched::catch2

// Fails the test case (REQUIRE: stops it; CHECK: continues) if any explored run fails.
#define CTRLSCHED_REQUIRE_EXPLORE(...)                                                 \
  do {                                                                                 \
    const ::ctrlsched::ExploreResult ctrlsched_result_ = ::ctrlsched::catch2::explore(__VA_ARGS__); \
    if (!ctrlsched_result_.passed()) FAIL(::ctrlsched::catch2::failure_text(ctrlsched_result_)); \
  } while (false)
#define CTRLSCHED_CHECK_EXPLORE(...)                                                   \
  do {                                                                                 \
    const ::ctrlsched::ExploreResult ctrlsched_result_ = ::ctrlsched::catch2::explore(__VA_ARGS__); \
    if (!ctrlsched_result_.passed()) FAIL_CHECK(::ctrlsched::catch2::failure_text(ctrlsched_result_)); \
  } while (false)

// Catch2 (v2) adapter for ctrlsched::explore.
//
//   TEST_CASE("transfer keeps the total") {
//     CTRLSCHED_REQUIRE_EXPLORE({.seeds = 10000}, [] { ...; REQUIRE(total == 100); });
//   }
//
// A failing REQUIRE inside the body (any thread) ends that run; a failing CHECK is noticed when
// it is the thread's last assertion (Catch2 v2 only exposes the last assertion's outcome), so
// prefer REQUIRE or ctrlsched::check inside explored code. On failure the test fails with the
// seed and the failure, and the command that replays it (CTRLSCHED_REPLAY=<handle>) is printed
// on one line of stderr, "ctrlsched: replay: ...", so Catch2's line wrapping cannot break it.
#pragma once

#include <errno.h>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <utility>

#include "ctrlsched/ctrlsched.hpp"
#include "ctrlsched/inprocess/rerun_command.hpp"

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

// The test's name as a Catch2 v2 command-line test spec matching only this test: the characters
// the spec parser reads as syntax are escaped with a backslash.
inline std::string test_spec(const std::string& name) {
  std::string spec;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '\\' || c == ',' || c == '[' || c == ']' || c == '*' || c == '"' || (i == 0 && c == '~')) spec += '\\';
    spec += c;
  }
  return spec;
}

// Catch2's console reporter wraps a failure message at 80 columns (breaking long paths at '/'),
// so a replay command inside the message cannot be pasted once the binary's path is long. The
// command is therefore printed unwrapped on its own line on stderr, just before the failure (stdout
// is flushed first so the two stay in order), and the message points to it.
inline std::string failure_text(const ExploreResult& result) {
  const std::string rerun = shell_word(program_invocation_name) + " " +
                            shell_word(test_spec(Catch::getResultCapture().getCurrentTestName()));
  std::string text = result.report(rerun);
  if (!result.first_failure || result.replayed) return text;
  const std::size_t replay_line = text.find("\n  replay: ");
  if (replay_line != std::string::npos) text.erase(replay_line);
  Catch::cout().flush();
  Catch::cerr() << "ctrlsched: replay: CTRLSCHED_REPLAY='" << result.first_failure->handle << "' "
                << rerun << std::endl;
  return text + "\n  replay: the 'ctrlsched: replay:' line printed (unwrapped) on stderr before this failure";
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

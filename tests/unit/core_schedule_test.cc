// The schedule file: exact text, run-length compression, line wrapping, round trips and strict
// loading with one-line errors.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "ctrlsched/schedule.h"

using ctrlsched::Decision;
using ctrlsched::DecisionKind;
using ctrlsched::Schedule;

namespace {

constexpr Decision S(std::uint32_t v) { return {DecisionKind::Schedule, v}; }
constexpr Decision W(std::uint32_t v) { return {DecisionKind::Wake, v}; }
constexpr Decision P(std::uint32_t v) { return {DecisionKind::Spurious, v}; }

Schedule make_schedule(std::vector<Decision> decisions) {
  Schedule schedule;
  schedule.handle = "17:random:pb2";
  schedule.hash = ctrlsched::hash_decisions(decisions);
  schedule.decisions = std::move(decisions);
  return schedule;
}

std::string load_error(const std::string& text) {
  std::string error;
  CHECK_FALSE(ctrlsched::parse_schedule(text, &error).has_value());
  CHECK(error.find('\n') == std::string::npos);
  return error;
}

// A valid file for `decisions`, with `body` replacing the token lines when given.
std::string file_text(const std::vector<Decision>& decisions, const std::string& count, const std::string& body) {
  return "ctrlsched-schedule 1\nhandle 17:random\nhash " + ctrlsched::format_hash(ctrlsched::hash_decisions(decisions)) +
         "\ndecisions " + count + "\n" + body;
}

}  // namespace

TEST_CASE("hash_decisions folds hash_decision over the list", "[schedule]") {
  CHECK(ctrlsched::hash_decisions({}) == ctrlsched::kScheduleHashSeed);
  const std::uint64_t two = ctrlsched::hash_decision(ctrlsched::hash_decision(ctrlsched::kScheduleHashSeed, S(1)), W(2));
  CHECK(ctrlsched::hash_decisions({S(1), W(2)}) == two);
}

TEST_CASE("a schedule prints in the documented format with run-length tokens", "[schedule]") {
  std::vector<Decision> decisions(12, S(1));
  decisions.push_back(W(0));
  decisions.push_back(S(2));
  decisions.push_back(S(2));
  decisions.push_back(P(1));
  const Schedule schedule = make_schedule(decisions);
  CHECK(ctrlsched::to_text(schedule) ==
        "ctrlsched-schedule 1\n"
        "handle 17:random:pb2\n"
        "hash " + ctrlsched::format_hash(schedule.hash) + "\n"
        "decisions 16\n"
        "S1*12 W0 S2*2 P1\n");
}

TEST_CASE("an empty schedule has no token lines and loads back", "[schedule]") {
  const Schedule schedule = make_schedule({});
  const std::string text = ctrlsched::to_text(schedule);
  CHECK(text == "ctrlsched-schedule 1\nhandle 17:random:pb2\nhash cbf29ce484222325\ndecisions 0\n");
  const auto loaded = ctrlsched::parse_schedule(text);
  REQUIRE(loaded.has_value());
  CHECK(loaded->decisions.empty());
}

TEST_CASE("long schedules wrap at 100 characters and round-trip", "[schedule]") {
  std::vector<Decision> decisions;
  for (std::uint32_t i = 0; i < 500; ++i) {
    decisions.push_back(S(i % 7));
    if (i % 5 == 0) decisions.push_back(S(i % 7));  // some runs of two
    if (i % 11 == 0) decisions.push_back(W(1000 + i));
    if (i % 13 == 0) decisions.push_back(P(i % 2));
  }
  const Schedule schedule = make_schedule(decisions);
  const std::string text = ctrlsched::to_text(schedule);
  std::istringstream lines(text);
  std::string line;
  int token_lines = 0;
  while (std::getline(lines, line)) {
    CHECK(line.size() <= 100);
    CHECK(line.find("  ") == std::string::npos);
    token_lines += line.starts_with("S") || line.starts_with("W") || line.starts_with("P") ? 1 : 0;
  }
  CHECK(token_lines > 5);
  std::string error;
  const auto loaded = ctrlsched::parse_schedule(text, &error);
  INFO(error);
  REQUIRE(loaded.has_value());
  CHECK(loaded->handle == schedule.handle);
  CHECK(loaded->hash == schedule.hash);
  CHECK(loaded->decisions == schedule.decisions);
}

TEST_CASE("loading accepts comments, blank lines and CRLF line endings", "[schedule]") {
  const std::vector<Decision> decisions = {S(1), S(1), S(1), W(2)};
  const std::string text = "# saved by ctrlsched\r\nctrlsched-schedule 1\r\n\r\nhandle 3:pct:d2:k9\r\n# the hash\nhash " +
                           ctrlsched::format_hash(ctrlsched::hash_decisions(decisions)) +
                           "\ndecisions 4\nS1*2\n# split across lines\nS1 W2";
  std::string error;
  const auto loaded = ctrlsched::parse_schedule(text, &error);
  INFO(error);
  REQUIRE(loaded.has_value());
  CHECK(loaded->handle == "3:pct:d2:k9");
  CHECK(loaded->decisions == decisions);
}

TEST_CASE("every loading error is reported on one line", "[schedule]") {
  const std::vector<Decision> two = {S(1), S(2)};
  const std::string hash = ctrlsched::format_hash(ctrlsched::hash_decisions(two));

  CHECK(load_error("") == "empty file: not a ctrlsched schedule (expected 'ctrlsched-schedule 1')");
  CHECK(load_error("# only a comment\n") == "empty file: not a ctrlsched schedule (expected 'ctrlsched-schedule 1')");
  CHECK(load_error("hello\n") == "line 1: not a ctrlsched schedule (expected 'ctrlsched-schedule 1')");
  CHECK(load_error("ctrlsched-schedule 2\n") ==
        "line 1: unsupported schedule version '2' (this build reads version 1)");
  CHECK(load_error("ctrlsched-schedule 1\nhash " + hash + "\n") == "line 2: expected 'handle <handle>'");
  CHECK(load_error("ctrlsched-schedule 1\nhandle \n") == "line 2: expected 'handle <handle>'");
  CHECK(load_error("ctrlsched-schedule 1\nhandle 1:random\n") == "unexpected end of file: expected 'hash <hash>'");
  // A '\r' left inside a field would be read as a CRLF ending once the file is written again.
  CHECK(load_error("ctrlsched-schedule 1\nhandle pa\x01\r\r\nhash " + hash + "\n") ==
        "line 2: the handle holds a control character");
  CHECK(load_error("ctrlsched-schedule 1\nhandle 1:random\nhash xyz\ndecisions 2\nS1 S2\n") ==
        "line 3: bad hash 'xyz' (expected 16 hex digits)");
  CHECK(load_error("ctrlsched-schedule 1\nhandle 1:random\nhash " + hash + "\nS1 S2\n") ==
        "line 4: expected 'decisions <decisions>'");
  CHECK(load_error(file_text(two, "two", "S1 S2\n")) == "line 4: bad decision count 'two'");
  CHECK(load_error(file_text(two, "99999999999999", "S1 S2\n")) ==
        "line 4: decision count 99999999999999 exceeds the supported maximum");
  CHECK(load_error(file_text(two, "2", "S1 X2\n")) == "line 5: bad token 'X2'");
  CHECK(load_error(file_text(two, "2", "S1 S2*1\n")) == "line 5: bad token 'S2*1'");
  CHECK(load_error(file_text(two, "2", "S1 S2*\n")) == "line 5: bad token 'S2*'");
  CHECK(load_error(file_text(two, "2", "S1 S2*x\n")) == "line 5: bad token 'S2*x'");
  CHECK(load_error(file_text(two, "2", "S1  S2\n")) == "line 5: empty token (tokens are separated by single spaces)");
  CHECK(load_error(file_text(two, "2", "S1 S2 \n")) == "line 5: empty token (tokens are separated by single spaces)");
  CHECK(load_error(file_text(two, "2", "S1\nS2 S3\n")) ==
        "line 6: count mismatch: more decisions follow than the 2 the header says");
  CHECK(load_error(file_text(two, "2", "S1*99999999999\n")) ==
        "line 5: count mismatch: more decisions follow than the 2 the header says");
  CHECK(load_error(file_text(two, "3", "S1 S2\n")) == "count mismatch: the header says 3 decisions but 2 follow");
  CHECK(load_error(file_text(two, "2", "S2 S1\n")) ==
        "hash mismatch: the header says " + hash + " but the decisions hash to " +
            ctrlsched::format_hash(ctrlsched::hash_decisions({S(2), S(1)})));
}

TEST_CASE("a file whose hash field disagrees with its decisions does not load", "[schedule]") {
  Schedule schedule = make_schedule({S(0), S(1)});
  schedule.hash ^= 1;  // e.g. the recorded hash of a different run
  std::string error;
  CHECK_FALSE(ctrlsched::parse_schedule(ctrlsched::to_text(schedule), &error).has_value());
  CHECK(error.starts_with("hash mismatch"));
}

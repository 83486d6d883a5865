// The examples in examples/unit_tests: the buggy test fails with a replay command, running that
// command (CTRLSCHED_REPLAY=<handle>) reproduces the same failing run, and the fixed test passes
// its 10,000 seeds.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace {

struct Output {
  int status;
  std::string text;
};

Output run(const std::string& command) {
  Output out{0, ""};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.text.append(buffer, n);
  const int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return out;
}

std::string between(const std::string& text, const std::string& before, const std::string& after) {
  const std::size_t start = text.find(before);
  if (start == std::string::npos) return "";
  const std::size_t from = start + before.size();
  return text.substr(from, text.find(after, from) - from);
}

void bug_found_replayed_and_fixed(const std::string& binary, const std::string& bug_filter,
                                  const std::string& fixed_filter, const std::string& kind) {
  const Output bug = run(binary + " " + bug_filter);
  INFO(bug.text);
  CHECK(bug.status != 0);
  const std::string handle = between(bug.text, "replay: CTRLSCHED_REPLAY='", "'");
  REQUIRE(!handle.empty());
  const std::string seed = handle.substr(0, handle.find(':'));
  CHECK(bug.text.find("ctrlsched: seed " + seed + " failed (" + kind + "), 1 failing of ") != std::string::npos);

  const Output replay = run("CTRLSCHED_REPLAY='" + handle + "' " + binary + " " + bug_filter);
  INFO(replay.text);
  CHECK(replay.status != 0);
  CHECK(replay.text.find("ctrlsched: seed " + seed + " failed (" + kind + ")\n") != std::string::npos);
  CHECK(replay.text.find("handle: " + handle) != std::string::npos);

  const Output fixed = run(binary + " " + fixed_filter);
  INFO(fixed.text);
  CHECK(fixed.status == 0);
}

}  // namespace

TEST_CASE("Catch2 example: check-then-act transfer found, replayed, fixed", "[inprocess][examples]") {
  bug_found_replayed_and_fixed(BANK_CATCH2_TEST, "'[bug]'", "'[fixed]'", "check");
}

TEST_CASE("GoogleTest example: lost wakeup found, replayed, fixed", "[inprocess][examples]") {
  bug_found_replayed_and_fixed(EVENT_GTEST_TEST, "--gtest_filter='EventBug.*'", "--gtest_filter='EventFixed.*'",
                               "deadlock");
}

// Regression: the replay command an adapter prints must be one line that can be pasted into a
// shell, however long the test binary's path. Catch2's console reporter wraps failure messages at
// 80 columns, which once split the command across lines. Each example binary is run through a
// symlink whose path is over 300 characters long; the printed command must hold that path whole,
// and running the printed line as it is must reproduce the failing run.
#include <catch2/catch.hpp>

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace {

struct Output {
  int status;
  std::string text;
};

Output run_shell(const std::string& command) {
  Output out{0, ""};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.text.append(buffer, n);
  const int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return out;
}

// A symlink to `binary` in a deep directory whose path has more than 300 characters.
std::string long_path_to(const std::string& binary, const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("ctrlsched-replay-line-" + std::to_string(getpid()));
  for (int level = 0; level < 7; ++level) dir /= "a-rather-long-directory-name-for-level-" + std::to_string(level);
  std::filesystem::create_directories(dir);
  const std::filesystem::path link = dir / name;
  std::filesystem::remove(link);
  std::filesystem::create_symlink(binary, link);
  REQUIRE(link.string().size() > 300);
  return link.string();
}

// The rest of the first line that contains `marker`, or "" when none does.
std::string line_after(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  const std::size_t from = at + marker.size();
  return text.substr(from, text.find('\n', from) - from);
}

void replay_line_is_whole(const std::string& binary, const std::string& filter, const std::string& marker) {
  const std::string path = long_path_to(binary, std::filesystem::path(binary).filename().string());
  const Output bug = run_shell(path + " " + filter);
  INFO(bug.text);
  CHECK(bug.status != 0);
  const std::string command = line_after(bug.text, marker);
  INFO("printed command: " << command);
  REQUIRE(command.rfind("CTRLSCHED_REPLAY='", 0) == 0);
  CHECK(command.find(path) != std::string::npos);

  const std::string handle = command.substr(18, command.find('\'', 18) - 18);
  const Output replay = run_shell(command);
  INFO(replay.text);
  CHECK(replay.status != 0);
  CHECK(replay.text.find("handle: " + handle) != std::string::npos);
  CHECK(replay.text.find("ctrlsched: seed " + handle.substr(0, handle.find(':')) + " failed (") != std::string::npos);
  std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                              ("ctrlsched-replay-line-" + std::to_string(getpid())));
}

}  // namespace

TEST_CASE("Catch2 adapter prints the replay command on one line for a long binary path", "[inprocess][replay]") {
  replay_line_is_whole(BANK_CATCH2_TEST, "'[bug]'", "ctrlsched: replay: ");
}

TEST_CASE("GoogleTest adapter prints the replay command on one line for a long binary path", "[inprocess][replay]") {
  replay_line_is_whole(EVENT_GTEST_TEST, "--gtest_filter='EventBug.*'", "  replay: ");
}

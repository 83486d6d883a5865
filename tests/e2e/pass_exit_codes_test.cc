// --pass-exit-codes (docs/cli.md, "Exit statuses that pass"): a program whose normal exit status
// is 6 (tests/torture/exit/normally_six.c) is reported failing at every seed by default, which
// hides its real crash; with the status declared, only the crashing seeds fail, the same ones,
// and their replay commands carry the declaration.
#include <catch2/catch.hpp>

#include <string>

#include "e2e.h"

using namespace e2e;

TEST_CASE("--pass-exit-codes: a normal exit status of 6 no longer hides the crash", "[pass_exit_codes]") {
  TempDir dir;
  const std::string target = binary("torture", "normally_six");
  const SeedsRun plain = run_seeds(dir, target, {"--seeds", "30", "-j2"});
  const SeedsRun declared = run_seeds(dir, target, {"--seeds", "30", "-j2", "--pass-exit-codes", "0,6"});
  INFO(plain.describe() << "\n" << declared.describe());
  REQUIRE(plain.json.is_object());
  REQUIRE(declared.json.is_object());

  const std::uint64_t crashes = declared.json["outcomes"]["signal"].get<std::uint64_t>();
  CHECK(crashes > 0);
  CHECK(crashes < 30);
  CHECK(declared.json["outcomes"]["pass"] == 30 - crashes);
  CHECK(declared.json["outcomes"]["exit"] == 0);
  CHECK(declared.process.exit_code == 1);
  // By default the same seeds crash and every other one is an exit-6 "failure".
  CHECK(plain.json["outcomes"]["signal"] == crashes);
  CHECK(plain.json["outcomes"]["exit"] == 30 - crashes);
  for (std::size_t i = 0; i < 30; ++i) {
    INFO("seed " << i);
    CHECK((plain.runs()[i]["kind"] == "signal") == (declared.runs()[i]["kind"] == "signal"));
  }

  // The one failure group's replay command declares the status; replaying it reproduces the
  // crash, and a passing seed replayed with the option passes (without it: exit status 6).
  REQUIRE(declared.groups().size() == 1);
  const std::string replay = declared.groups()[0]["replay"].get<std::string>();
  CHECK(contains(replay, " --pass-exit-codes=0,6 "));
  std::string failing, passing;
  for (const Json& run : declared.runs()) {
    if (run["kind"] == "signal" && failing.empty()) failing = run["handle"].get<std::string>();
    if (run["kind"] == "pass" && passing.empty()) passing = run["handle"].get<std::string>();
  }
  const Process crash = run_replay(dir, {failing, "--pass-exit-codes=0,6"}, target);
  INFO(crash.describe());
  CHECK(crash.exit_code == 1);
  CHECK(contains(crash.out, "SIGSEGV"));
  const Process pass = run_replay(dir, {passing, "--pass-exit-codes=0,6"}, target);
  INFO(pass.describe());
  CHECK(pass.exit_code == 0);
  const Process undeclared = run_replay(dir, {passing}, target);
  INFO(undeclared.describe());
  CHECK(undeclared.exit_code == 1);
  CHECK(contains(undeclared.out, "exit status 6"));
}

TEST_CASE("--pass-exit-codes: a bad list is one usage line, exit 2", "[pass_exit_codes]") {
  const Process p = run({ctrlsched_path(), "--pass-exit-codes", "0,256", "--", binary("torture", "normally_six")});
  INFO(p.describe());
  CHECK(p.exit_code == 2);
  CHECK(p.out.empty());
  CHECK(contains(p.err, "ctrlsched: --pass-exit-codes expects exit statuses from 0 to 255 separated by commas, got '0,256'"));
}

// --private-cwd (docs/cli.md, "Working directory"): a test that needs a fresh working directory
// (tests/torture/cwd/fresh_directory.c creates result.txt with O_EXCL and leaves it) passes every
// seed with -j2 when each run has its own directory, the directories are removed afterwards, the
// calibrated PCT k does not depend on what the caller's directory holds, and the replay command
// carries the option. Without it the same seeds fail: the test can tell the difference.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "e2e.h"

using namespace e2e;

namespace {

// `ctrlsched <options> --json <dir>/<name>.json -- fresh_directory`, in `dir`, with TMPDIR set
// to `tmp` so the private directories can be counted.
struct CwdRun {
  Process process;
  Json json;
};

CwdRun run_in(const TempDir& dir, const fs::path& tmp, const std::string& name, std::vector<std::string> options) {
  Command c;
  c.argv = {ctrlsched_path()};
  c.argv.insert(c.argv.end(), options.begin(), options.end());
  const fs::path report = dir / (name + ".json");
  c.argv.insert(c.argv.end(), {"--json", report.string(), "--no-save", "--", binary("torture", "fresh_directory")});
  c.cwd = dir.path();
  c.env = {{"TMPDIR", tmp.string()}};
  c.timeout_seconds = 120;
  CwdRun r;
  r.process = run(c);
  std::ifstream in(report);
  if (in) r.json = Json::parse(in, nullptr, false);
  return r;
}

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("--private-cwd: runs that write the same file in their directory no longer interfere", "[private_cwd]") {
  TempDir dir;
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);

  // Shared directory (the default): the calibration run leaves result.txt, every seed then finds
  // it and exits 2.
  const CwdRun shared = run_in(dir, tmp, "shared", {"--seeds", "20", "-j2"});
  INFO(shared.process.describe());
  REQUIRE(shared.json.is_object());
  CHECK(shared.process.exit_code == 1);
  CHECK(shared.json["outcomes"]["exit"] == 20);
  CHECK(fs::exists(dir / "result.txt"));

  // Private directories, with the left-over result.txt still in ctrlsched's own directory:
  // every seed passes, deterministically, and nothing is left behind.
  for (const std::string jobs : {"-j2", "-j1"}) {
    const CwdRun priv = run_in(dir, tmp, "private" + jobs, {"--seeds", "20", jobs, "--private-cwd"});
    INFO(jobs << "\n" << priv.process.describe());
    REQUIRE(priv.json.is_object());
    CHECK(priv.process.exit_code == 0);
    CHECK(priv.json["outcomes"]["pass"] == 20);
    CHECK(entries(tmp) == 0);
  }
}

TEST_CASE("--private-cwd: PCT's calibrated k does not depend on the caller's directory", "[private_cwd]") {
  TempDir clean_dir, dirty_dir;
  const fs::path tmp = clean_dir / "tmp";
  fs::create_directories(tmp);
  { std::ofstream(dirty_dir / "result.txt") << "left over\n"; }

  const CwdRun clean = run_in(clean_dir, tmp, "clean", {"--seeds", "10", "-j2", "--strategy", "pct", "--private-cwd"});
  const CwdRun dirty = run_in(dirty_dir, tmp, "dirty", {"--seeds", "10", "-j2", "--strategy", "pct", "--private-cwd"});
  const CwdRun dirty_shared = run_in(dirty_dir, tmp, "dirty-shared", {"--seeds", "10", "-j2", "--strategy", "pct"});
  INFO(clean.process.describe() << "\n" << dirty.process.describe() << "\n" << dirty_shared.process.describe());
  REQUIRE(clean.json.is_object());
  REQUIRE(dirty.json.is_object());
  REQUIRE(dirty_shared.json.is_object());
  CHECK(clean.json["summary"]["pct_steps_calibrated"] == true);
  CHECK(dirty.json["summary"]["pct_steps"] == clean.json["summary"]["pct_steps"]);
  CHECK(dirty.json["runs"] == clean.json["runs"]);
  // Without the option the calibration run exits at once in the dirty directory: another k.
  CHECK(dirty_shared.json["summary"]["pct_steps"] != clean.json["summary"]["pct_steps"]);
  CHECK(entries(tmp) == 0);
}

TEST_CASE("--private-cwd: the replay command carries it and replays in a private directory", "[private_cwd]") {
  TempDir dir;
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  // A failing group is needed for a replay command: a shared run whose seeds all exit 2.
  { std::ofstream(dir / "result.txt") << "left over\n"; }
  const CwdRun shared = run_in(dir, tmp, "shared", {"--seeds", "3", "-j2"});
  REQUIRE(shared.json.is_object());
  REQUIRE(shared.json["groups"].size() == 1);
  CHECK(shared.json["groups"][0]["replay"].get<std::string>().find("--private-cwd") == std::string::npos);
  // With --private-cwd and --pass-exit-codes 0 (nothing passes but 0): no failure, so the
  // option's own replay form is checked from a run that does fail (--pass-exit-codes 6).
  const CwdRun priv = run_in(dir, tmp, "private", {"--seeds", "3", "-j2", "--private-cwd", "--pass-exit-codes", "6"});
  INFO(priv.process.describe());
  REQUIRE(priv.json.is_object());
  CHECK(priv.json["outcomes"]["exit"] == 3);  // exit 0 is not declared passing
  REQUIRE(priv.json["groups"].size() == 1);
  const std::string replay = priv.json["groups"][0]["replay"].get<std::string>();
  CHECK(contains(replay, " --pass-exit-codes=6 --private-cwd "));
  const std::string handle = priv.json["runs"][0]["handle"].get<std::string>();
  // Replayed in a private directory: the left-over result.txt is not seen, the run exits 0,
  // which the same option list judges a failure, exactly as in the report (exit 1).
  Command c;
  c.argv = {ctrlsched_path(), "replay", handle, "--private-cwd", "--pass-exit-codes=6", "--",
            binary("torture", "fresh_directory")};
  c.cwd = dir.path();
  c.env = {{"TMPDIR", tmp.string()}};
  const Process replayed = run(c);
  INFO(replayed.describe());
  CHECK(replayed.exit_code == 1);
  CHECK(contains(replayed.out, "exit status 0"));
  // Without --private-cwd the replay finds result.txt: it exits 2 at once, off the recorded
  // schedule (exit 4, diverged).
  c.argv = {ctrlsched_path(), "replay", handle, "--pass-exit-codes=6", "--", binary("torture", "fresh_directory")};
  const Process shared_replay = run(c);
  INFO(shared_replay.describe());
  CHECK(shared_replay.exit_code == 4);
  CHECK(contains(shared_replay.out, "exit status 2"));
  CHECK(entries(tmp) == 0);
}

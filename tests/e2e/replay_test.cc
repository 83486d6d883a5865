// Replay: a failing seed's handle (as printed and as in the JSON report) replays the same failure
// — exit code 1, same kind and message, same site, same schedule hash, "replay matched"; saved
// schedule files replay with --schedule; a wrong hash or an edited schedule diverges (exit 4).
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "e2e.h"

using namespace e2e;

namespace {

// Replays one failing run of a seeds report through `how` and checks it reproduced exactly. A
// handle or a schedule file carries the expected hash, so the replay itself says "matched";
// `--seed S` has nothing to compare with, so only the hash it prints is compared here.
void check_reproduces(const TempDir& dir, const std::string& target, const Json& run,
                      const std::vector<std::string>& how, bool verdict_expected = true) {
  const Process p = run_replay(dir, how, target);
  INFO("replaying seed " << run["seed"] << " recorded as " << run.dump());
  INFO(p.describe());
  REQUIRE_FALSE(p.timed_out);
  CHECK(p.exit_code == 1);
  const Json& failure = run["failure"];
  // Same kind and message (the message carries the kind and, for assertions and signals, the
  // site); the site itself appears in the output too.
  CHECK(replay_fail_message(p.out) == failure["message"].get<std::string>());
  if (failure["file"].is_string()) {
    CHECK(contains(p.out, basename(failure["file"].get<std::string>()) + ":" + std::to_string(failure["line"].get<int>())));
  }
  const std::string hash = run["schedule_hash"].get<std::string>();
  CHECK(replay_schedule_hash(p.out) == hash);
  if (verdict_expected) CHECK(contains(p.out, "replay matched schedule " + hash));
  CHECK_FALSE(contains(p.out, "DIVERGED"));
}

// The failing example runs shared by the replay tests: 1000 seeds each, default strategy.
std::vector<ExpectedExample> failing_sync_examples() {
  std::vector<ExpectedExample> result;
  for (const ExpectedExample& e : expected_examples())
    if (e.buggy() && e.sync_reachable()) result.push_back(e);
  return result;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> words;
  std::istringstream in(s);
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

}  // namespace

TEST_CASE("the first failing seed of every failure group replays from its handle, and so do others",
          "[replay]") {
  for (const ExpectedExample& e : failing_sync_examples()) {
    DYNAMIC_SECTION(e.name) {
      TempDir dir;
      const std::string target = example(e.name);
      const SeedsRun r = run_seeds(dir, target, {"--seeds", "1000", "-j2"});
      INFO(r.describe());
      REQUIRE(r.json.is_object());
      REQUIRE(r.process.exit_code == 1);
      REQUIRE_FALSE(r.groups().empty());

      for (const Json& g : r.groups()) {
        const Json& first = r.run_of(g["first_seed"].get<std::uint64_t>());
        REQUIRE(first["outcome"] == "fail");
        const std::string handle = first["handle"].get<std::string>();
        // The printed replay command is `ctrlsched replay <handle> <target>`, in the summary too.
        const std::vector<std::string> words = split_words(g["replay"].get<std::string>());
        REQUIRE(words.size() >= 4);
        CHECK(words[0] == "ctrlsched");
        CHECK(words[1] == "replay");
        CHECK(words[2] == handle);
        CHECK(words[3] == target);
        CHECK(contains(r.process.out, "replay:  ctrlsched replay " + handle));
        check_reproduces(dir, target, first, {handle});
      }

      // A handful of other failing seeds, spread over the run (the last one included).
      std::vector<const Json*> failing;
      for (const Json& run : r.runs())
        if (run["outcome"] == "fail") failing.push_back(&run);
      const std::size_t n = failing.size();
      std::set<std::size_t> picks;
      for (std::size_t k = 1; k <= 4 && n > 1; ++k) picks.insert(std::min(n - 1, k * n / 4));
      for (std::size_t i : picks) check_reproduces(dir, target, *failing[i], {(*failing[i])["handle"].get<std::string>()});

      // `replay --seed S` with the run's options (no handle): the same schedule.
      const Json& some = *failing[picks.empty() ? 0 : *picks.begin()];
      const std::uint64_t seed = some["seed"].get<std::uint64_t>();
      check_reproduces(dir, target, some, {"--seed", std::to_string(seed)}, false);
    }
  }
}

TEST_CASE("a passing seed replays as a pass with exit code 0", "[replay]") {
  TempDir dir;
  const std::string target = example("check_then_act");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "20", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  for (const Json& run : r.runs()) {
    if (run["outcome"] != "pass") continue;
    const Process p = run_replay(dir, {run["handle"].get<std::string>()}, target);
    INFO(p.describe());
    CHECK(p.exit_code == 0);
    CHECK(contains(p.out, "\nPASS\n"));
    CHECK(contains(p.out, "replay matched schedule " + run["schedule_hash"].get<std::string>()));
    break;
  }
}

TEST_CASE("schedules of failing seeds are saved and replay with --schedule", "[replay]") {
  TempDir dir;
  const std::string target = example("check_then_act");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "300", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  REQUIRE(r.failures() > 0);

  // Saved: one file per failing seed (the first 20), named seed-<S>-<hash>.sched, holding the
  // run's handle, its hash and exactly its decisions.
  std::vector<const Json*> failing;
  for (const Json& run : r.runs())
    if (run["outcome"] == "fail") failing.push_back(&run);
  const std::size_t expected_files = std::min<std::size_t>(failing.size(), 20);
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(r.schedules)) files += entry.path().extension() == ".sched";
  CHECK(files == expected_files);
  std::size_t replayed = 0;
  for (std::size_t i = 0; i < expected_files; ++i) {
    const Json& run = *failing[i];
    const std::string hash = run["schedule_hash"].get<std::string>();
    const fs::path file = r.schedules / ("seed-" + std::to_string(run["seed"].get<std::uint64_t>()) + "-" + hash + ".sched");
    INFO("schedule file " << file);
    REQUIRE(fs::exists(file));
    const auto schedule = read_schedule_file(file);
    REQUIRE(schedule.has_value());
    CHECK(schedule->handle == run["handle"].get<std::string>());
    CHECK(schedule->hash == hash);
    CHECK(schedule_hash(schedule->decisions) == hash);
    CHECK(schedule->decisions.size() == run["decisions"].get<std::size_t>());
    if (i % 7 == 0) {  // replay a few of them
      check_reproduces(dir, target, run, {"--schedule", file.string()});
      ++replayed;
    }
  }
  CHECK(replayed >= 1);

  // A handle replay finds the saved schedule and verifies the run against it, decision by decision.
  const Json& first = *failing[0];
  const Process p = run_replay(dir, {first["handle"].get<std::string>(), "--save-schedules", r.schedules.string()},
                               target);
  INFO(p.describe());
  CHECK(p.exit_code == 1);
  CHECK(contains(p.out, "verifying against saved schedule"));
  CHECK(contains(p.out, "replay matched schedule " + first["schedule_hash"].get<std::string>()));
}

TEST_CASE("without --save-schedules, schedules go to .ctrlsched/schedules in the working directory; --no-save saves none",
          "[replay]") {
  TempDir dir;
  const std::string target = example("check_then_act");
  Command c;
  c.argv = {ctrlsched_path(), "--seeds", "100", "-j2", target};
  c.cwd = dir.path();
  const Process p = run(c);
  INFO(p.describe());
  REQUIRE(p.exit_code == 1);
  const fs::path store = dir / ".ctrlsched/schedules";
  REQUIRE(fs::is_directory(store));
  std::vector<fs::path> saved;
  for (const auto& entry : fs::directory_iterator(store)) saved.push_back(entry.path());
  REQUIRE_FALSE(saved.empty());
  // Replaying from that directory (the default store) finds and verifies against it.
  const std::string name = saved.front().filename().string();  // seed-<S>-<hash>.sched
  std::smatch m;
  static const std::regex re(R"(seed-([0-9]+)-([0-9a-f]{16})\.sched)");
  REQUIRE(std::regex_match(name, m, re));
  const auto schedule = read_schedule_file(saved.front());
  REQUIRE(schedule.has_value());
  const Process replay = run_replay(dir, {schedule->handle}, target);
  INFO(replay.describe());
  CHECK(replay.exit_code == 1);
  CHECK(contains(replay.out, "verifying against saved schedule .ctrlsched/schedules/" + name));
  CHECK(contains(replay.out, "replay matched schedule " + m[2].str()));

  TempDir other;
  c.argv = {ctrlsched_path(), "--seeds", "100", "-j2", "--no-save", target};
  c.cwd = other.path();
  const Process no_save = run(c);
  INFO(no_save.describe());
  CHECK(no_save.exit_code == 1);
  CHECK_FALSE(fs::exists(other / ".ctrlsched"));
}

TEST_CASE("replay --save-schedule writes a schedule that replays to the same run", "[replay]") {
  TempDir dir;
  const std::string target = example("abba_deadlock");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "200", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  REQUIRE(r.failures() > 0);
  for (const Json& run : r.runs()) {
    if (run["outcome"] != "fail") continue;
    const fs::path saved = dir / "replayed.sched";
    const Process p = run_replay(dir, {run["handle"].get<std::string>(), "--save-schedule", saved.string()}, target);
    INFO(p.describe());
    CHECK(p.exit_code == 1);
    REQUIRE(fs::exists(saved));
    const auto schedule = read_schedule_file(saved);
    REQUIRE(schedule.has_value());
    CHECK(schedule->hash == run["schedule_hash"].get<std::string>());
    check_reproduces(dir, target, run, {"--schedule", saved.string()});
    break;
  }
}

TEST_CASE("a handle with a wrong schedule hash diverges: exit code 4 and DIVERGED", "[replay]") {
  TempDir dir;
  const std::string target = example("check_then_act");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "100", "-j2", "--no-save"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  for (const std::string outcome : {"fail", "pass"}) {
    for (const Json& run : r.runs()) {
      if (run["outcome"] != outcome) continue;
      std::string handle = run["handle"].get<std::string>();
      const std::string hash = run["schedule_hash"].get<std::string>();
      REQUIRE(handle.size() > 16);
      REQUIRE(handle.substr(handle.size() - 17) == "@" + hash);
      handle.back() = handle.back() == '0' ? '1' : '0';
      const Process p = run_replay(dir, {handle}, target);
      INFO("outcome " << outcome << ", wrong handle " << handle);
      INFO(p.describe());
      CHECK(p.exit_code == 4);
      CHECK(contains(p.out, "DIVERGED"));
      CHECK(contains(p.out, hash));  // the hash the run really had
      break;
    }
  }
}

TEST_CASE("a schedule file edited to run a thread that is not runnable diverges at that step", "[replay]") {
  TempDir dir;
  const std::string target = example("abba_deadlock");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "50", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  REQUIRE(r.failures() > 0);
  const Json* failing = nullptr;
  for (const Json& run : r.runs())
    if (run["outcome"] == "fail") {
      failing = &run;
      break;
    }
  REQUIRE(failing);
  const fs::path file = r.schedules / ("seed-" + std::to_string((*failing)["seed"].get<std::uint64_t>()) + "-" +
                                       (*failing)["schedule_hash"].get<std::string>() + ".sched");
  auto schedule = read_schedule_file(file);
  REQUIRE(schedule.has_value());
  REQUIRE(schedule->decisions.size() >= 2);
  REQUIRE(schedule->decisions[0][0] == 'S');

  SECTION("a thread that does not exist yet") {
    // At the first decision main has created only T1: the last thread of the run (T2) cannot run.
    const int last = (*failing)["threads"].get<int>() - 1;
    REQUIRE(last >= 2);
    schedule->decisions[0] = "S" + std::to_string(last);
    const fs::path edited = dir / "edited.sched";
    write_schedule_file(edited, *schedule);
    const Process p = run_replay(dir, {"--schedule", edited.string()}, target);
    INFO(read_file(edited));
    INFO(p.describe());
    CHECK(p.exit_code == 4);
    CHECK(std::regex_search(p.out, std::regex(R"(DIVERGED at decision 0 \(step [0-9]+\))")));
    CHECK(contains(p.out, "T" + std::to_string(last)));
  }
  SECTION("a thread that never exists") {
    const std::size_t at = schedule->decisions.size() / 2;
    std::size_t index = at;
    while (index < schedule->decisions.size() && schedule->decisions[index][0] != 'S') ++index;
    REQUIRE(index < schedule->decisions.size());
    schedule->decisions[index] = "S9";
    const fs::path edited = dir / "edited.sched";
    write_schedule_file(edited, *schedule);
    const Process p = run_replay(dir, {"--schedule", edited.string()}, target);
    INFO(read_file(edited));
    INFO(p.describe());
    CHECK(p.exit_code == 4);
    CHECK(std::regex_search(p.out, std::regex("DIVERGED at decision " + std::to_string(index) + R"( \(step [0-9]+\))")));
  }
}

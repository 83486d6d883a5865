// Shrink: a failing random-strategy run with many preemptions shrinks to one that fails the same
// way (same message and site) with the fewest preemptions the bug needs, printed as an
// interleaving; the saved schedule replays with the same failure; a passing run has nothing to
// shrink; the result does not depend on -j.
#include <catch2/catch.hpp>

#include <regex>

#include "e2e.h"

using namespace e2e;

namespace {

struct Shrunk {
  Process process;
  std::uint64_t before = 0, after = 0;
  std::vector<std::string> interleaving;  // the indented lines after "interleaving (...)"
};

Shrunk run_shrink(const TempDir& dir, const std::vector<std::string>& how, const std::string& target) {
  std::vector<std::string> argv = {ctrlsched_path(), "shrink"};
  argv.insert(argv.end(), how.begin(), how.end());
  argv.push_back("--");
  argv.push_back(target);
  Command command;
  command.argv = argv;
  command.cwd = dir.path();
  command.timeout_seconds = 300;
  Shrunk s;
  s.process = run(command);
  std::smatch m;
  static const std::regex kCounts(R"(preemptions: (\d+) -> (\d+) · )");
  if (std::regex_search(s.process.out, m, kCounts)) {
    s.before = std::stoull(m[1]);
    s.after = std::stoull(m[2]);
  }
  bool inside = false;
  for (const std::string& line : lines(s.process.out)) {
    if (line.starts_with("interleaving (")) {
      inside = true;
    } else if (inside && line.starts_with("  ") && !line.starts_with("      ")) {
      s.interleaving.push_back(line.substr(2));
    } else {
      inside = false;
    }
  }
  return s;
}

std::size_t marked_preemptions(const Shrunk& s) {
  std::size_t n = 0;
  for (const std::string& line : s.interleaving) n += line.starts_with("-- preemption ");
  return n;
}

struct Case {
  std::string name;
  std::string target;
  std::uint64_t fewest;  // preemptions the bug needs (documented in the example's header)
  std::string source;    // the file whose lines the interleaving must show
};

}  // namespace

TEST_CASE("a failing run with many preemptions shrinks to the fewest the bug needs, and replays", "[shrink]") {
  const std::vector<Case> cases = {
      {"two_preemptions", example("two_preemptions"), 2, "two_preemptions.c"},
      {"check_then_act", example("check_then_act"), 1, "check_then_act.c"},
      {"abba_deadlock", example("abba_deadlock"), 1, "abba_deadlock.c"},
      {"lost_update (instrumented)", binary("example_inst", "lost_update"), 1, "lost_update.c"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      TempDir dir;
      const SeedsRun seeds = run_seeds(dir, c.target, {"--seeds", "200", "--strategy", "random", "-j2"});
      INFO(seeds.describe());
      REQUIRE(seeds.json.is_object());
      // The failing run with the most preemptions (the lowest seed among equals).
      const Json* worst = nullptr;
      for (const Json& r : seeds.runs()) {
        if (r["outcome"] != "fail") continue;
        if (!worst || r["preemptions"].get<std::uint64_t>() > (*worst)["preemptions"].get<std::uint64_t>()) worst = &r;
      }
      REQUIRE(worst != nullptr);
      const std::uint64_t before = (*worst)["preemptions"].get<std::uint64_t>();
      REQUIRE(before > c.fewest);
      const std::string message = (*worst)["failure"]["message"].get<std::string>();

      const Shrunk s = run_shrink(dir, {"-j2", "--save-schedule", "short.sched", (*worst)["handle"].get<std::string>()},
                                  c.target);
      INFO(s.process.describe());
      REQUIRE(s.process.exit_code == 1);
      CHECK(s.before == before);
      CHECK(s.after == c.fewest);
      CHECK(contains(s.process.out, "FAIL  " + message + "\n"));
      CHECK(marked_preemptions(s) == c.fewest);
      REQUIRE(s.interleaving.size() >= 2);
      bool shows_source = false;
      for (const std::string& line : s.interleaving) shows_source = shows_source || contains(line, c.source + ":");
      CHECK(shows_source);
      CHECK(contains(s.process.out, "wrote short.sched\n"));

      // The saved schedule replays the same failure with that many preemptions.
      const Process replay = run_replay(dir, {"--schedule", (dir / "short.sched").string()}, c.target);
      INFO(replay.describe());
      CHECK(replay.exit_code == 1);
      CHECK(replay_fail_message(replay.out) == message);
      CHECK(contains(replay.out, " · " + std::to_string(c.fewest) + " preemptions · "));
      CHECK(contains(replay.out, "replay matched schedule "));
    }
  }
}

TEST_CASE("shrinking gives the same run whatever -j is, and a passing run has nothing to shrink", "[shrink]") {
  TempDir dir;
  const std::string target = example("two_preemptions");
  const SeedsRun seeds = run_seeds(dir, target, {"--seeds", "200", "--strategy", "random", "-j2"});
  REQUIRE(seeds.json.is_object());
  REQUIRE_FALSE(seeds.groups().empty());
  const std::string handle = seeds.run_of(seeds.groups()[0]["first_seed"].get<std::uint64_t>())["handle"];
  const Shrunk one = run_shrink(dir, {"-j1", "--save-schedule", "a.sched", handle}, target);
  const Shrunk two = run_shrink(dir, {"-j2", "--save-schedule", "b.sched", handle}, target);
  INFO(one.process.describe());
  INFO(two.process.describe());
  CHECK(one.process.exit_code == 1);
  CHECK(two.process.exit_code == 1);
  CHECK(one.interleaving == two.interleaving);
  CHECK(one.after == two.after);
  CHECK(read_file(dir / "a.sched") == read_file(dir / "b.sched"));

  const Process p = run({ctrlsched_path(), "shrink", "--seed", "0", "--strategy", "random", example("correct_locks")});
  INFO(p.describe());
  CHECK(p.exit_code == 0);
  CHECK(contains(p.out, "PASS  the run passed: nothing to shrink\n"));
}

// The examples under the default run: every buggy example whose bug is reachable with sync
// points is found within 1000 seeds by the default strategy (the portfolio), with the failure kind
// examples/expected.txt promises and the failure site its header documents; every correct
// example passes 1000 seeds under both strategies (and its instrumented build passes with access
// points, and spurious wakeups break nothing). Access-only bugs: instrumented_test.cc.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "e2e.h"

using namespace e2e;

namespace {

bool accepted(const std::string& kind, const std::vector<std::string>& kinds) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : "|") + x;
  return s;
}

// A correct program must pass every seed. --stop-after bounds the cost when the tool is wrong;
// --max-steps bounds the cost of a livelocked seed (the examples take a few hundred steps).
void check_passes(const std::string& target, const std::vector<std::string>& extra, std::uint64_t seeds) {
  TempDir dir;
  std::vector<std::string> options = {"--seeds", std::to_string(seeds), "-j2", "--stop-after", "5",
                                      "--max-steps", "100000"};
  options.insert(options.end(), extra.begin(), extra.end());
  const SeedsRun r = run_seeds(dir, target, options);
  INFO(r.describe());
  REQUIRE_FALSE(r.process.timed_out);
  REQUIRE(r.json.is_object());
  CHECK(r.process.exit_code == 0);
  CHECK(r.failures() == 0);
  CHECK(r.json["summary"]["seeds"] == seeds);
  CHECK(r.json["outcomes"]["pass"] == seeds);
  CHECK(r.groups().empty());
  CHECK(contains(r.process.out, "PASS  " + std::to_string(seeds) + " seeds"));
}

}  // namespace

TEST_CASE("expected.txt is well formed and names a built example for every line", "[examples][buggy]") {
  const auto examples = expected_examples();
  REQUIRE(examples.size() >= 2);
  std::set<std::string> listed;
  for (const ExpectedExample& e : examples) {
    INFO("example " << e.name << " expect '" << e.expect << "' points '" << e.points << "'");
    CHECK((e.expect == "pass" || e.expect == "assertion" || e.expect == "signal" || e.expect == "deadlock" ||
           e.expect == "hang"));
    CHECK((e.points == "sync" || e.points == "access"));
    CHECK(fs::exists(e.source));
    CHECK(find_binary("example", e.name).has_value());
    CHECK(find_binary("example_inst", e.name).has_value());
    CHECK(listed.insert(e.name).second);  // no duplicates
  }
  // ... and every example target is in expected.txt (an example nobody checks is a dead example).
  for (const std::string& name : binary_names("example")) {
    INFO("example target " << name);
    CHECK(listed.count(name) == 1);
  }
}

TEST_CASE("every sync-reachable buggy example is found within 1000 seeds by the default strategy",
          "[examples][buggy]") {
  for (const ExpectedExample& e : expected_examples()) {
    if (!e.buggy() || !e.sync_reachable()) continue;
    DYNAMIC_SECTION(e.name << " (expect " << e.expect << ")") {
      TempDir dir;
      const SeedsRun r = run_seeds(dir, example(e.name), {"--seeds", "1000", "-j2"});
      INFO(r.describe());
      REQUIRE_FALSE(r.process.timed_out);
      REQUIRE(r.json.is_object());
      CHECK(r.process.exit_code == 1);
      CHECK(r.json["summary"]["strategy"] == "portfolio");  // the default
      CHECK(r.json["summary"]["seeds"] == 1000);
      REQUIRE(r.failures() > 0);
      REQUIRE_FALSE(r.groups().empty());

      // Every failing seed failed the way the example says (no other failure kinds at all).
      const std::vector<std::string> kinds = accepted_kinds(e);
      INFO("accepted kinds: " << joined(kinds));
      std::uint64_t failing = 0;
      for (const Json& run : r.runs()) {
        if (run["outcome"] == "pass") continue;
        ++failing;
        INFO("seed " << run["seed"] << ": " << run.dump());
        CHECK(accepted(run["kind"].get<std::string>(), kinds));
      }
      CHECK(failing == r.failures());
      std::uint64_t in_groups = 0;
      for (const Json& g : r.groups()) {
        INFO("group " << g.dump());
        CHECK(accepted(g["kind"].get<std::string>(), kinds));
        in_groups += g["count"].get<std::uint64_t>();
      }
      CHECK(in_groups == r.failures());
      std::uint64_t by_kind = 0;
      for (const std::string& k : kinds) by_kind += r.json["outcomes"].value(k, std::uint64_t{0});
      CHECK(by_kind == r.failures());
      CHECK(r.json["outcomes"]["pass"].get<std::uint64_t>() + r.failures() == 1000);

      // The failure site the example's header documents (assertions, signals) is the site reported.
      const Json& first = r.groups()[0];
      if (const auto site = header_failure_site(e.source)) {
        INFO("header says the failure is at " << site->first << ":" << site->second);
        REQUIRE(first["file"].is_string());
        CHECK(basename(first["file"].get<std::string>()) == site->first);
        CHECK(first["line"] == site->second);
      } else {
        // Deadlocks name no single line; the header must at least say it is one.
        CHECK(contains(header_failure_text(e.source), e.expect));
      }
      // The text summary names the failure and its replay command.
      CHECK(contains(r.process.out, "FAIL  "));
      CHECK(contains(r.process.out, first["replay"].get<std::string>()));
    }
  }
}

TEST_CASE("every buggy example's instrumented twin fails the same way within 1000 seeds", "[examples][buggy]") {
  // examples/README.md: "Every example gives the same expected outcome in its twin."
  for (const ExpectedExample& e : expected_examples()) {
    if (!e.buggy()) continue;
    DYNAMIC_SECTION(e.name << " instrumented (expect " << e.expect << ")") {
      TempDir dir;
      const SeedsRun r = run_seeds(dir, binary("example_inst", e.name), {"--seeds", "1000", "-j2", "--stop-after", "3"});
      INFO(r.describe());
      REQUIRE_FALSE(r.process.timed_out);
      REQUIRE(r.json.is_object());
      CHECK(r.process.exit_code == 1);
      REQUIRE(r.failures() > 0);
      const std::vector<std::string> kinds = accepted_kinds(e);
      for (const Json& g : r.groups()) {
        INFO("group " << g.dump());
        CHECK(accepted(g["kind"].get<std::string>(), kinds));
        if (const auto site = header_failure_site(e.source)) {
          REQUIRE(g["file"].is_string());
          CHECK(basename(g["file"].get<std::string>()) == site->first);
          CHECK(g["line"] == site->second);
        }
      }
    }
  }
}

TEST_CASE("every correct example passes 1000 seeds under pct and under random", "[examples][correct]") {
  for (const ExpectedExample& e : expected_examples()) {
    if (e.buggy()) continue;
    for (const std::string strategy : {"pct", "random"}) {
      DYNAMIC_SECTION(e.name << " --strategy " << strategy) {
        check_passes(example(e.name), {"--strategy", strategy}, 1000);
      }
    }
  }
}

TEST_CASE("correct examples pass with spurious wakeups and, instrumented, with access points",
          "[examples][correct]") {
  for (const ExpectedExample& e : expected_examples()) {
    if (e.buggy()) continue;
    DYNAMIC_SECTION(e.name << " --spurious-wakeups") {
      check_passes(example(e.name), {"--spurious-wakeups"}, 300);
    }
    for (const std::string strategy : {"pct", "random"}) {
      DYNAMIC_SECTION(e.name << " instrumented, --points accesses --strategy " << strategy) {
        check_passes(binary("example_inst", e.name), {"--points", "accesses", "--strategy", strategy}, 200);
      }
    }
  }
}

TEST_CASE("random --preemption-bound K: no run preempts more than K times, and a bug that needs two "
          "preemptions is out of reach with one",
          "[examples][buggy]") {
  // two_preemptions.c's header: the assertion needs at least two preemptions (checked
  // exhaustively on a model of the program), so with a bound of 1 no seed may fail.
  for (const int bound : {0, 1, 2}) {
    DYNAMIC_SECTION("--preemption-bound " << bound) {
      TempDir dir;
      const SeedsRun r = run_seeds(dir, example("two_preemptions"),
                                   {"--seeds", "1000", "-j2", "--strategy", "random", "--preemption-bound",
                                    std::to_string(bound), "--no-save"});
      INFO(r.describe());
      REQUIRE(r.json.is_object());
      CHECK(r.json["summary"]["preemption_bound"] == bound);
      std::uint64_t most = 0;
      for (const Json& run : r.runs()) {
        most = std::max(most, run["preemptions"].get<std::uint64_t>());
        CHECK(contains(run["handle"].get<std::string>(), ":pb" + std::to_string(bound)));
      }
      CHECK(most <= static_cast<std::uint64_t>(bound));
      if (bound < 2) {
        CHECK(r.process.exit_code == 0);
        CHECK(r.failures() == 0);
      }
    }
  }
}

// e2e.counterfactual: the counterfactual control of `confirmed` (docs/forcing.md, "The
// counterfactual control"). event_registry (the corpus) loses an event when two workers read
// g_nevents (line 22) before either increments it (line 25): the true pattern is R1-W2-W1
// 22→25→25 (its `ctrlsched-truth` header). Both workers then write the same slot of g_events
// (line 24), so Falcon also ranks W1-W2 24→24, which rides along: forced, the schedule performs
// the lost update too, and it used to come out `confirmed` (13/13). Forced the other way round
// it fails just as often, so it is inconclusive now; the true pattern's opposite order (the
// serial W2-R1-W1) never fails, so it stays confirmed.
#include <catch2/catch.hpp>

#include "e2e.h"

using namespace e2e;

namespace {

// The pattern is of `kind`, and its i-th access's site contains sites[i] ("a.c:22 ").
bool at_sites(const Json& pattern, const std::string& kind, const std::vector<std::string>& sites) {
  if (pattern.at("kind") != kind) return false;
  const Json& accesses = pattern.at("accesses");
  if (accesses.size() != sites.size()) return false;
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (!contains(accesses.at(i).at("site").get<std::string>(), sites[i])) return false;
  return true;
}

bool at_lines(const Json& pattern, const char* kind, const std::vector<std::string>& lines) {
  std::vector<std::string> sites;
  for (const std::string& line : lines) sites.push_back("event_registry.c:" + line + " ");
  return at_sites(pattern, kind, sites);
}

}  // namespace

TEST_CASE("counterfactual: a ride-along pattern is no longer confirmed, the true one stays confirmed",
          "[counterfactual]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("corpus_inst", "event_registry"), {"--seeds", "200", "--strategy", "pct", "--localize", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& loc = r.json.at("localization");
  REQUIRE(loc.at("failing").get<int>() > 0);
  const Json& patterns = loc.at("falcon").at("patterns");
  INFO("Falcon: " << patterns.dump());
  const Json* cause = nullptr;
  const Json* ride_along = nullptr;
  for (const Json& p : patterns) {
    if (!p.contains("confirmation")) continue;
    if (cause == nullptr && at_lines(p, "R1-W2-W1", {"22", "25", "25"}) && p.at("location") == "g_nevents") cause = &p;
    if (ride_along == nullptr && at_lines(p, "W1-W2", {"24", "24"})) ride_along = &p;
  }
  REQUIRE(cause != nullptr);
  REQUIRE(ride_along != nullptr);

  // The cause: confirmed, and its opposite order fails significantly less often.
  const Json& c = cause->at("confirmation");
  CHECK(c.at("verdict") == "confirmed");
  REQUIRE(c.contains("counterfactual"));
  const Json& c_opposite = c.at("counterfactual");
  CHECK(c_opposite.at("outcome") == "order matters");
  CHECK(c_opposite.at("completed").get<int>() >= 7);
  CHECK(c_opposite.at("failed").get<int>() * 4 <= c_opposite.at("completed").get<int>());
  CHECK(c_opposite.at("test").at("p_lower").get<double>() < c_opposite.at("test").at("alpha").get<double>());
  // The opposite order of a triple: the other thread's step first, then the pattern's thread.
  CHECK(contains(c_opposite.at("order").get<std::string>(), "W event_registry.c:25"));
  CHECK(c_opposite.at("order").get<std::string>().rfind("W event_registry.c:25", 0) == 0);

  // The ride-along pair: the forced order fails, but its opposite fails as often. Inconclusive,
  // never refuted by the control, with the evidence in the reason and the JSON.
  const Json& w = ride_along->at("confirmation");
  CHECK(w.at("verdict") == "inconclusive");
  CHECK(w.at("failed").get<int>() * 2 >= w.at("completed").get<int>());  // it would have been confirmed
  CHECK(w.at("test").at("p_above_baseline").get<double>() < 0.01);
  REQUIRE(w.contains("counterfactual"));
  const Json& w_opposite = w.at("counterfactual");
  CHECK(w_opposite.at("outcome") == "fails as often");
  CHECK(w_opposite.at("completed").get<int>() >= 7);
  CHECK(w_opposite.at("test").at("p_lower").get<double>() >= w_opposite.at("test").at("alpha").get<double>());
  CHECK(w.at("reason").get<std::string>().rfind("the opposite order fails as often: ", 0) == 0);

  // The text report shows the control under both patterns.
  CHECK(contains(r.process.out, "the order matters"));
  CHECK(contains(r.process.out, "the opposite order fails as often"));
}

TEST_CASE("counterfactual: an order in a loop whose control leans its way gets a second look", "[counterfactual]") {
  // work_claim (tests/eval/corpus): two workers claim items by reading the next index in one
  // critical section and advancing it in another, in a loop. Forced at the failing iteration,
  // Locon's stale read R@23 → W@28 fails in every run where it completed; its opposite order fails
  // often too, because the other iterations stay free (10 of 13 over the first 20 seeds, Fisher
  // p = 0.087). Each look is at half the level; the second, over twice the seeds, decides.
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("corpus_inst", "work_claim"),
                               {"--seeds", "1000", "--strategy", "pct", "--localize", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& findings = r.json.at("localization").at("locon").at("findings");
  REQUIRE(!findings.empty());
  const Json& c = findings.at(0).at("confirmation");
  INFO(c.dump());
  CHECK(c.at("verdict") == "confirmed");
  CHECK(c.at("forced_runs").get<int>() == 2 * c.at("requested_runs").get<int>());
  REQUIRE(c.contains("counterfactual"));
  const Json& opposite = c.at("counterfactual");
  CHECK(opposite.at("looks") == 2);
  CHECK(opposite.at("outcome") == "order matters");
  CHECK(opposite.at("test").at("alpha").get<double>() == Approx(0.025));
  CHECK(opposite.at("test").at("p_lower").get<double>() < 0.025);
  CHECK(opposite.at("forced_runs") == c.at("forced_runs"));
}

namespace {

// The first forced Falcon pattern of `kind` at `sites` (at_sites), or nullptr.
const Json* falcon_pattern(const Json& report, const std::string& kind, const std::vector<std::string>& sites) {
  for (const Json& p : report.at("localization").at("falcon").at("patterns")) {
    if (p.contains("confirmation") && at_sites(p, kind, sites)) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("counterfactual: a pattern the failure comes without is not confirmed", "[counterfactual]") {
  // heldout2's start_gate loses the gate's broadcast when main sends it before a worker waits.
  // Falcon's woken1-wait2 38→38 (one worker woken, then the other starting to wait) is a
  // consequence: forced, it deadlocks every time; forced the other way round it mostly cannot
  // complete, and those runs, replayed, deadlock with no occurrence of it (docs/forcing.md,
  // "Without the pattern"). It used to come out confirmed, its control unrealized.
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("heldout2_inst", "start_gate"),
                               {"--seeds", "1000", "--strategy", "pct", "--localize", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json* woken = falcon_pattern(r.json, "woken1-wait2", {"start_gate.c:38 ", "start_gate.c:38 "});
  REQUIRE(woken != nullptr);
  const Json& c = woken->at("confirmation");
  INFO(c.dump());
  CHECK(c.at("verdict") == "inconclusive");
  CHECK(c.at("failed").get<int>() * 2 >= c.at("completed").get<int>());  // it fails like a cause
  const Json& control = c.at("counterfactual");
  CHECK(control.at("outcome") == "fails as often");
  CHECK(control.at("completed").get<int>() < 7);  // the opposite order alone is no control
  CHECK(control.at("without_pattern").get<int>() >= 7);
  CHECK(control.at("without_pattern").get<int>() <= control.at("replayed_incomplete").get<int>());
  CHECK(control.at("without_pattern_failed").get<int>() * 2 >= control.at("without_pattern").get<int>());
  CHECK(control.at("test").at("p_without").get<double>() >= control.at("test").at("alpha").get<double>());
  CHECK(c.at("reason").get<std::string>().rfind("it fails as often without it: ", 0) == 0);
  CHECK(contains(r.process.out, "without the pattern (replayed runs where the opposite did not complete"));
}

TEST_CASE("counterfactual: a read that crashes before the write had the pattern, cut short", "[counterfactual]") {
  // heldout2's timer_wheel: the wheel thread reads the slots (line 54) before main allocated them
  // (line 35) and dereferences NULL. Forced the other way round, the runs that crash before main's
  // write never write at 35 at all: the order R→W cut short by the run's end, as Falcon reads it,
  // so they are no runs without the pattern, and the true cause stays confirmed.
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("heldout2_inst", "timer_wheel"),
                               {"--seeds", "1000", "--strategy", "pct", "--localize", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json* cause = falcon_pattern(r.json, "R1-W2", {"timer_wheel.c:54 ", "timer_wheel.c:35 "});
  REQUIRE(cause != nullptr);
  const Json& c = cause->at("confirmation");
  INFO(c.dump());
  CHECK(c.at("verdict") == "confirmed");
  const Json& control = c.at("counterfactual");
  CHECK(control.at("replayed_incomplete").get<int>() > 0);
  CHECK(control.at("without_pattern") == 0);
}

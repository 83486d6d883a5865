// Confirmation of a forced pattern, without processes: what counts as the same failure, the
// tally of a batch, and the text and JSON renderings (confirm.h).
#include <catch2/catch.hpp>

#include "ctrlsched/forcing.h"
#include "localize/confirm.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

RunResult run_with(std::uint64_t seed, OutcomeKind kind, const std::string& signature = "") {
  RunResult r;
  r.seed = seed;
  r.kind = kind;
  if (kind != OutcomeKind::Pass) {
    FailureDetails f;
    f.kind = kind;
    f.signature = signature;
    r.failure = f;
  }
  return r;
}

DirectedRun directed(RunResult result, bool completed) {
  DirectedRun d;
  d.result = std::move(result);
  d.force.completed = completed ? 1 : 0;
  return d;
}

const FailureIdentity kOriginal{OutcomeKind::Assertion, "assertion|bank.c:31|withdraw"};

}  // namespace

TEST_CASE("confirm: the same failure is the same kind and signature", "[confirm]") {
  CHECK(same_failure(run_with(1, OutcomeKind::Assertion, kOriginal.signature), kOriginal));
  CHECK_FALSE(same_failure(run_with(1, OutcomeKind::Assertion, "assertion|bank.c:40|main"), kOriginal));
  CHECK_FALSE(same_failure(run_with(1, OutcomeKind::Signal, kOriginal.signature), kOriginal));
  CHECK_FALSE(same_failure(run_with(1, OutcomeKind::Pass), kOriginal));
  const FailureIdentity id = failure_identity(run_with(3, OutcomeKind::Deadlock, "deadlock|a|b"));
  CHECK(id.kind == OutcomeKind::Deadlock);
  CHECK(id.signature == "deadlock|a|b");
}

TEST_CASE("confirm: tally, text and JSON of a reproducing pattern", "[confirm]") {
  std::vector<DirectedRun> runs;
  runs.push_back(directed(run_with(20, OutcomeKind::Pass), false));
  runs.push_back(directed(run_with(21, OutcomeKind::Assertion, kOriginal.signature), true));
  runs.push_back(directed(run_with(22, OutcomeKind::Signal, "signal|SIGSEGV|x"), true));
  runs.push_back(directed(run_with(23, OutcomeKind::Assertion, kOriginal.signature), true));
  const ConfirmationResult c = tally_confirmation(runs, kOriginal, 0.023);
  CHECK(c.forced_runs == 4);
  CHECK(c.failed == 2);
  CHECK(c.failed_other == 1);
  CHECK(c.completed == 3);
  CHECK_FALSE(c.refuted);
  // 3 completed runs are fewer than kMinCompletedRuns: nothing can be decided yet.
  CHECK(c.verdict == Verdict::Unrealized);
  REQUIRE(c.failing_seed.has_value());
  CHECK(*c.failing_seed == 21);
  CHECK(render_confirmation(1, c) ==
        "forcing #1 unrealized: order completed in 3/4; no thread performed step 1 in 1/4 forced runs");
  const nlohmann::json j = confirmation_json(c);
  CHECK(j.at("forced_runs") == 4);
  CHECK(j.at("failed") == 2);
  CHECK(j.at("failed_incomplete") == 0);
  CHECK(j.at("failed_other") == 1);
  CHECK(j.at("completed") == 3);
  CHECK(j.at("baseline_rate") == 0.023);
  CHECK(j.at("refuted") == false);
  CHECK(j.at("failing_seed") == 21);
  CHECK(j.at("verdict") == "unrealized");
  CHECK(j.at("reason") == "no thread performed step 1 in 1/4 forced runs");
  CHECK(j.at("test").at("alpha") == kVerdictAlpha);
  CHECK(j.at("test").at("min_completed") == kMinCompletedRuns);
}

TEST_CASE("confirm: a failure before the forced order completed is not evidence", "[confirm]") {
  std::vector<DirectedRun> runs;
  for (std::uint64_t s = 0; s < 20; ++s) runs.push_back(directed(run_with(s, OutcomeKind::Assertion, kOriginal.signature), false));
  const ConfirmationResult c = tally_confirmation(runs, kOriginal, 0.5);
  CHECK(c.failed == 0);
  CHECK(c.failed_incomplete == 20);
  // The order never completed: the runs say nothing about it, so it is not refuted either.
  CHECK_FALSE(c.refuted);
  CHECK(c.verdict == Verdict::Unrealized);
  CHECK_FALSE(c.failing_seed.has_value());
}

TEST_CASE("confirm: a pattern whose forcing never fails is refuted", "[confirm]") {
  std::vector<DirectedRun> runs;
  for (std::uint64_t s = 0; s < 20; ++s) runs.push_back(directed(run_with(s, OutcomeKind::Pass), s < 18));
  ConfirmationResult c = tally_confirmation(runs, kOriginal, 0.4);
  CHECK(c.refuted);
  CHECK(render_confirmation(3, c) == "forcing #3 refuted: forcing never fails (0/20, order achieved in 18)");
  runs[5].result = run_with(5, OutcomeKind::Deadlock, "deadlock|x");
  c = tally_confirmation(runs, kOriginal, 0.4);
  CHECK(c.refuted);
  CHECK(render_confirmation(3, c) ==
        "forcing #3 refuted: forcing never fails this way (0/20, 1 other failure, order achieved in 18)");
  runs[0].result = run_with(0, OutcomeKind::Assertion, kOriginal.signature);
  runs[0].force.completed = 1;
  c = tally_confirmation(runs, kOriginal, 1.0);
  CHECK(c.verdict == Verdict::Refuted);  // 1/18 is far below what a cause shows (half)
  CHECK(render_confirmation(1, c) ==
        "forcing #1 refuted: fails 1/18 runs where the order completed (baseline 100%), 1 other failure");
  c = tally_confirmation(runs, kOriginal, 0.0);
  CHECK(c.verdict == Verdict::Inconclusive);  // above a zero baseline, but not reliable
  CHECK(render_confirmation(1, c).ends_with("(baseline 0%), 1 other failure"));
  c = tally_confirmation(runs, kOriginal, 0.125);
  CHECK(render_confirmation(1, c).ends_with("(baseline 12%), 1 other failure"));
}

// docs/forcing.md, "Refuted, but it fails another way".
TEST_CASE("confirm: completed runs that fail another way keep a pattern from being refuted", "[confirm]") {
  std::vector<DirectedRun> runs;
  for (std::uint64_t s = 0; s < 20; ++s) runs.push_back(directed(run_with(s, OutcomeKind::Pass), true));
  for (std::uint64_t s = 0; s < 12; ++s) {
    runs[s].result = run_with(s, OutcomeKind::Assertion, "assertion|config.cpp:60|serve(int, int*)");
  }
  // A deadlock and a run that failed another way before the order completed are not counted.
  runs[12].result = run_with(12, OutcomeKind::Deadlock, "deadlock");
  runs[13].result = run_with(13, OutcomeKind::Signal, "signal|SIGSEGV|config.cpp:70");
  runs[13].force.completed = 0;
  ConfirmationResult c = tally_confirmation(runs, kOriginal, 0.01);
  CHECK(c.failed == 0);
  CHECK(c.failed_other == 14);
  CHECK(c.failed_other_completed == 12);
  CHECK(c.verdict == Verdict::Inconclusive);
  CHECK(c.reason ==
        "not refuted: 12 of the 19 runs where the order completed failed another way (assertion at config.cpp:60 in "
        "serve(int, int*)), so the order is not shown harmless; counted as failures, 12/19 is no evidence against it "
        "(P = 0.92)");
  CHECK(confirmation_json(c).at("failed_other_completed") == 12);
  // Two such runs of 19 do not save it.
  for (std::uint64_t s = 2; s < 12; ++s) runs[s].result = run_with(s, OutcomeKind::Pass);
  c = tally_confirmation(runs, kOriginal, 0.01);
  CHECK(c.failed_other_completed == 2);
  CHECK(c.verdict == Verdict::Refuted);
}

// docs/forcing.md, "Failed after its own steps".
TEST_CASE("confirm: a failure after the failing thread's own steps counts for the order", "[confirm]") {
  // R1 → W2: step 0 is role 0's (the reader, T1), step 1 role 1's (the writer, T2).
  ForceDirective order{};
  order.kind = static_cast<std::uint32_t>(ForceKind::Order);
  order.count = 2;
  order.steps[0].role = 0;
  order.steps[1].role = 1;
  const auto cut_short = [](std::uint64_t seed, std::uint32_t steps_done, std::uint32_t failing_thread) {
    DirectedRun d = directed(run_with(seed, OutcomeKind::Assertion, kOriginal.signature), false);
    d.force.steps_done = steps_done;
    d.force.role_thread[0] = 2;  // role 0 = T1
    d.force.role_thread[1] = 3;  // role 1 = T2
    d.failing_thread = failing_thread;
    return d;
  };
  std::vector<DirectedRun> runs;
  for (std::uint64_t s = 0; s < 8; ++s) runs.push_back(cut_short(s, 1, 1));  // the reader failed after its read
  ConfirmationResult c = tally_confirmation(runs, kOriginal, 0.2, &order);
  CHECK(c.completed == 8);
  CHECK(c.failed == 8);
  CHECK(c.failed_after_own_steps == 8);
  CHECK(c.failed_incomplete == 0);
  CHECK(c.verdict == Verdict::Confirmed);
  CHECK(confirmation_json(c).at("failed_after_own_steps") == 8);

  // The writer failing before its step, nothing done yet, or no directive to tell: no evidence.
  runs = {cut_short(0, 1, 2), cut_short(1, 0, 1)};
  c = tally_confirmation(runs, kOriginal, 0.2, &order);
  CHECK(c.completed == 0);
  CHECK(c.failed_incomplete == 2);
  c = tally_confirmation({cut_short(0, 1, 1)}, kOriginal, 0.2);
  CHECK(c.failed_incomplete == 1);
  // A thread bound to no role failed: not this order's failure either.
  c = tally_confirmation({cut_short(0, 1, 5)}, kOriginal, 0.2, &order);
  CHECK(c.failed_incomplete == 1);
}

TEST_CASE("confirm: runs whose read step saw another write are unrealized, and say so", "[confirm]") {
  // dcl_registry: step 1 is the constructor's store, step 2 the reader's load; in 15 of 20 runs
  // the creator (T1) filled the object first (ForceOutcome::read_from_broken_*), in 5 the reader
  // never got there at all.
  std::vector<DirectedRun> runs;
  for (std::uint64_t s = 0; s < 20; ++s) {
    DirectedRun d = directed(run_with(s, OutcomeKind::Pass), false);
    d.force.steps_done = 1;
    d.force.role_thread[1] = 3;  // T2
    if (s < 15) {
      d.force.read_from_broken_step = 1;
      d.force.read_from_broken_thread = 2;  // T1
      d.force.read_from_broken_site = 0x1234;
    }
    runs.push_back(d);
  }
  const ForceDirective directive =
      order_directive({force_step(0x10, ForceAccess::Write, 0), force_step(0x20, ForceAccess::Read, 1)});
  const ConfirmationResult c =
      tally_confirmation(runs, kOriginal, 0.18, &directive, {"W a.cpp:26 registry()", "R a.cpp:37 checksum()"});
  // Not a single run had the order: no evidence either way, least of all a refutation.
  CHECK(c.completed == 0);
  CHECK(c.verdict == Verdict::Unrealized);
  CHECK(c.reason ==
        "T1 wrote the location again before step 2 (R a.cpp:37 checksum()) could read step 1's write, in 15/20 "
        "forced runs");
  // When most incomplete runs stalled otherwise, the stall is named as before.
  for (std::size_t i = 0; i < 10; ++i) runs[i].force.read_from_broken_step = 0;
  const ConfirmationResult other =
      tally_confirmation(runs, kOriginal, 0.18, &directive, {"W a.cpp:26 registry()", "R a.cpp:37 checksum()"});
  CHECK(other.reason == "T2 never reached step 2 (R a.cpp:37 checksum()) in 20/20 forced runs");
}

// e2e.evaluation: `ctrlsched_evaluate --corpus` on the evaluation corpus (tests/eval/corpus/),
// in a configuration CI can afford (fewer seeds than the 1000 of docs/evaluation.md), asserting
// the summary rows at the floor measured with exactly this configuration. Every count is
// deterministic (fixed seeds), so a change that makes localization worse on the corpus fails
// here; when the analyses improve, raise the floor (docs/evaluation.md, "Corpus"). The issue's
// targets (>= 90% ...) are the goal, not what is asserted.
#include <catch2/catch.hpp>

#include "e2e.h"

using namespace e2e;

namespace {

// A subset covering the classes (lost update, check-then-act, order violations, init through
// the same function, loop iterations, three threads, multi-variable (two of them), deadlock, lost
// wakeup, hang, double-checked locking, relaxed atomics) with 200 seeds each: a few minutes on 2
// cores.
constexpr const char* kEvaluationSeeds = "200";
constexpr const char* kPrograms =
    "bank_deposit,seat_booking,log_flusher,event_registry,work_claim,sensor_log3,latency_stats,abba_transfer,"
    "lost_wakeup,pending_hang,dcl_registry,hit_counter,table_resize";

// The floor: what this configuration measured when the test was written (docs/evaluation.md,
// "Corpus"). Counts, not shares: every number is deterministic.
struct Floor {
  int found;                     // programs with a failing seed (of 13)
  int falcon_rank_one_true;      // Falcon's rank-1 pattern (all runs) is true
  int locon_true;                // Locon's first finding is true
  int forced_true_confirmed;     // forced true patterns confirmed, at least
  int forced_true_refuted;       // forced true patterns refuted, at most
  int forced_wrong_confirmed;    // forced wrong patterns confirmed, at most
  int refuted_never_completed;   // at most
  int falcon_rank_one_tied;      // of the rank-1 hits, sharing rank 1 with another pattern, at most
};

// Measured on the accuracy branch (docs/evaluation.md, "The e2e floor"): Locon 5 → 6, forced true
// confirmed 13 → 14, ties at rank 1 4 → 1. Forced wrong confirmed went UP 8 → 9, on purpose and
// stated: atomics are now accesses, so hit_counter has patterns at all, and its wrong W1-W2-W1 on
// `hits` is confirmed (it drags the true R1-W2-W1 along; docs/forcing.md).
// The counterfactual control (docs/forcing.md) took forced true confirmed 14 → 13 and forced wrong
// confirmed 9 → 8: bank_deposit's Locon pair W@23→W@23 (two stale stores, true by the truth rule)
// fails 11/20 forced and 9/20 the other way round, so the order of the stores is not the cause
// (the reads before them are) and it is inconclusive; event_registry's wrong W1-W2 on g_events
// the same way (13/13 vs 7/7).
// Then (docs/evaluation.md, "Corpus", results of 2026-11-25 evening): lock objects in the truth
// headers, std:: lock sites at the user's line and the lock cycle forced as one order took Falcon
// 9 → 10, Locon 6 → 7, forced true confirmed 13 → 18, forced wrong confirmed 8 → 4; the truth
// rule's "at least two of the cause's lines" (issue 10's definition) is included.
// Then (docs/evaluation.md, "Corpus", 2026-11-27): adjacent accesses in Falcon's window, Locon's
// pairs as data dependences, orders a run's end cut short, one statement one site, the verdict
// rules (failed after its own steps, refuted but needed, seen only in passing runs, a triple's
// second serial order), and the judge's "report that says more on the cause's own lines" took
// Falcon 10 → 11, Locon 7 → 11, forced true confirmed 18 → 25 (of 31, none refuted), forced
// wrong confirmed 4 → 1.
// Then (2026-12-01): this configuration measured forced true confirmed 26 of 31 already on the
// tree of 2026-11-28 (the floor had stayed at 25); this round's verdict rules moved no true
// pattern here (two wrong refutations became inconclusive, docs/forcing.md "Refuted, but the
// failure came first"), so the floor is raised to what is measured.
// Then (2026-12-02): a needed pair of a confirmed two-variable finding confirms the single pattern
// that is that pair (docs/forcing.md, "A pair of a two-variable cause"): latency_stats' Falcon
// W1-R2 25→42 and ConSeq W1@25→R2@42 took forced true confirmed 26 → 28 of 31, and Falcon's own
// pairs coupled across the two locations its R1-W2 42→25 (the other straddle): 29 of 31.
// Then (2026-12-02, later): a pattern whose opposite cannot happen at its step because the step
// is inside a lock is forced once more from its thread's call of that lock (docs/forcing.md,
// "From the entry of the step's critical section"): lost_wakeup's true signal1-wait2 is confirmed,
// 30 of 31, and so is its unlock1@34 → unlock2@21, the same two critical sections named by their
// ends on a line the truth header does not list: forced wrong confirmed 1 → 2, measured, not
// wished away.
// Then (2026-12-03): table_resize joins the subset (a two-variable cause, 7 of 200 seeds fail).
// Falcon no longer counts orders that thread creation or join fixes, nor orders "cut short" at a
// location no run ever wrote (docs/localization.md): its rank 1 goes from 5 to the true cause
// (the tree before measured 13, 11, 12, 31 confirmed, 0, 2, 0, 1 on these 13 programs), and
// forced true confirmed is 34 of 37 (3 inconclusive: halves of causes now in the top 3).
// Then (2026-12-03, later): a read step must read the write step before it (docs/forcing.md, "A
// read reads the write before it"): dcl_registry's reads of the constructor's placeholder
// (Falcon W1-R2-W1 26→37→28, Locon W1@26→R2@37) were refuted or unrealized on runs whose read saw
// the fill; held only at the object, the creator publishes first and both are confirmed. Its
// header gained that cause (the read between construction and fill; docs/evaluation.md): the
// tree before measured 13, 13, 13, 34 confirmed, 1 refuted, 2, 0, 1 with it; this one 13, 13,
// 13, 36, 0, 2, 0, 1.
// Then (2026-12-04): a pair not confirmed alone is coupled with a confirmed pair on another
// location in both of that pair's orders (docs/forcing.md, "The confirmed pair reversed, too"):
// table_resize's W1-R2 39→29, half of the other straddle, is confirmed as a part: 37 of 39.
constexpr Floor kFloor = {13, 13, 13, 37, 0, 2, 0, 1};

int verdicts(const Json& summary, const char* which, const char* verdict) {
  const Json& counts = summary.at(which);
  return counts.contains(verdict) ? counts.at(verdict).get<int>() : 0;
}

}  // namespace

TEST_CASE("evaluation: the corpus summary rows stay at or above the measured floor", "[evaluation]") {
  TempDir dir;
  const std::string evaluator = binary("tool", "ctrlsched_evaluate");
  const fs::path corpus_bin = fs::path(binary("corpus_inst", "bank_deposit")).parent_path();
  const fs::path summary_path = dir / "summary.json";
  const Process p = run({evaluator, "--ctrlsched", ctrlsched_path(), "--corpus",
                         (source_dir() / "tests" / "eval" / "corpus").string(), "--bin-dir", corpus_bin.string(),
                         "--seeds", kEvaluationSeeds, "--only", kPrograms, "--jobs", "2", "--work", (dir / "work").string(),
                         "--summary-json", summary_path.string()},
                        900);
  INFO(p.describe());
  REQUIRE(p.exit_code == 0);
  const Json summary = Json::parse(read_file(summary_path));
  INFO(summary.dump(2));
  const int programs = summary.at("programs").get<int>();
  CHECK(programs == 13);
  CHECK(summary.at("found").get<int>() >= kFloor.found);
  CHECK(summary.at("falcon_rank_one_true").get<int>() >= kFloor.falcon_rank_one_true);
  CHECK(summary.at("locon_true").get<int>() >= kFloor.locon_true);
  CHECK(verdicts(summary, "forced_true_verdicts", "confirmed") >= kFloor.forced_true_confirmed);
  CHECK(verdicts(summary, "forced_true_verdicts", "refuted") <= kFloor.forced_true_refuted);
  CHECK(verdicts(summary, "forced_wrong_verdicts", "confirmed") <= kFloor.forced_wrong_confirmed);
  CHECK(summary.at("refuted_never_completed").get<int>() <= kFloor.refuted_never_completed);
  CHECK(summary.at("falcon_rank_one_true_tied").get<int>() <= kFloor.falcon_rank_one_tied);
  // The Markdown the evaluator prints has the five summary rows of docs/evaluation.md.
  for (const char* row : {"Falcon rank-1 pattern is the true cause", "Locon's first finding",
                          "a forced TRUE pattern is `confirmed`", "a forced FALSE pattern is `confirmed`",
                          "whose forced order never completed"}) {
    CHECK(contains(p.out, row));
  }
}

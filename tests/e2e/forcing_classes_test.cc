// Forcing regression classes (issue 10, docs/forcing.md "Binding", "Verdicts and their
// statistics", docs/localization.md "Symptoms"): programs written like real code, each with a
// trap a forced order used to fall into, localized by the real driver (`--seeds N --localize`).
//   force_init_by_main   main runs the pattern's code during initialization, before the workers
//   force_loop_seats     the pattern repeats in a loop; only the last seat's occurrence fails
//   force_late_partner   three workers; the partner is created long after the first step
//   force_lock_region    the first step sits in a lock region its partner needs
//   force_symptom        an error-path store that happens only once the failure is determined,
//                        read by main after the join (an order no schedule changes: no pattern)
//   force_symptom_monitor the same store read by a monitor woken through a semaphore: a symptom
//   force_check_first    a pair that can only happen after the partner's earlier check (forced in
//                        the failing run's context)
//   force_flag_wakeup    a lost wakeup whose first half (the check before the flag is set) is in
//                        every failing run but rarely fails when forced alone
//   force_pair_half      one half of a two-variable bug in a loop: forced alone the other half
//                        and the other iteration decide; in the failing run's context it decides
//   force_cut_short_half one half of a two-variable bug that every failing run has only cut
//                        short (the check fails after the read, before the other thread's store)
//   force_coupled_pair   a two-variable bug: a single-location pattern that is one pair of
//                        Locon's coupled finding is confirmed as that part
//   force_signal_in_lock a lost wakeup whose signal is inside the lock the waiter needs: the
//                        opposite order can only start from the signaller's lock call
//   force_writer_in_lock an order violation whose write is inside the lock the reader needs: the
//                        writer is held at its lock call, not at its write
//   force_lock_evict     a lock-order deadlock whose one lock's half is the third call of a loop
//                        and needs the other thread's earlier lock: a sync pattern bound to its
//                        call and forced in the failing run's context
//   force_publish_then_fill a double-checked table published before it is filled: the read of the
//                        placeholder happens only if the creator, past its placeholder store, may
//                        publish but not fill (held only at the table's field)
//   force_two_checks     an order violation that fails at either of two assertions: forced, each
//                        read-before-store fails at its own, not always the reference run's
// The true pattern must come out `confirmed` (never `refuted`); a wrong pattern must not be
// `confirmed`; an order that cannot happen is `unrealized`, with the step that never happened.
#include <catch2/catch.hpp>

#include <functional>

#include <algorithm>

#include "ctrlsched/access_pairs.h"
#include "ctrlsched/forcing.h"
#include "e2e.h"
#include "localize/confirm.h"
#include "report/symbolizer.h"

using namespace e2e;
namespace drv = ctrlsched::driver;

namespace {

// The line of the first line of `file` (tests/e2e/programs) whose code starts with `code`.
int program_line(const std::string& file, const std::string& code) {
  return line_starting_with(programs_source_dir() / file, code);
}

// "force_x.c:27 fn" at `line`.
bool site_at(const Json& access, const std::string& file, int line) {
  const std::string site = access.at("site").get<std::string>();
  return site.find(file + ":" + std::to_string(line) + " ") != std::string::npos;
}

// A Falcon pattern of `kind` whose accesses are at `lines`, in order.
bool pattern_is(const Json& p, const std::string& kind, const std::string& file, const std::vector<int>& lines) {
  if (p.at("kind") != kind || p.at("accesses").size() != lines.size()) return false;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (!site_at(p.at("accesses").at(i), file, lines[i])) return false;
  return true;
}

struct LocalizedProgram {
  SeedsRun run;
  const Json& patterns() const { return run.json.at("localization").at("falcon").at("patterns"); }
};

LocalizedProgram localize_program(const TempDir& dir, const std::string& program, const std::string& seeds,
                                  std::vector<std::string> extra = {}) {
  std::vector<std::string> options = {"--seeds", seeds, "--localize", "-j2"};
  // pct unless the caller names a strategy: the expectations were measured with it (the default
  // before the portfolio, docs/strategies.md).
  if (std::find(extra.begin(), extra.end(), "--strategy") == extra.end()) options.insert(options.end(), {"--strategy", "pct"});
  options.insert(options.end(), extra.begin(), extra.end());
  return LocalizedProgram{run_seeds(dir, binary("program_inst", program), options, {}, 560)};
}

// The forced Falcon pattern matching kind/lines; fails the test when it was not forced.
const Json& forced_pattern(const LocalizedProgram& r, const std::string& kind, const std::string& file,
                           const std::vector<int>& lines) {
  for (const Json& p : r.patterns())
    if (pattern_is(p, kind, file, lines) && p.contains("confirmation")) return p;
  FAIL("pattern " << kind << " not forced");
  throw std::logic_error("unreachable");
}

// The true pattern is confirmed with its evidence; every other forced pattern is not confirmed,
// unless `also_true` accepts it (another order of the cause's own lines).
void check_true_pattern(const LocalizedProgram& r, const std::string& kind, const std::string& file,
                        const std::vector<int>& lines,
                        const std::function<bool(const Json&)>& also_true = [](const Json&) { return false; }) {
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  const Json& truth = forced_pattern(r, kind, file, lines);
  const Json& c = truth.at("confirmation");
  INFO(c.dump());
  CHECK(c.at("verdict") == "confirmed");
  CHECK(c.at("completed").get<int>() >= static_cast<int>(drv::kMinCompletedRuns));
  CHECK(c.at("failed").get<int>() * 2 >= c.at("completed").get<int>());
  CHECK(c.at("test").at("p_above_baseline").get<double>() < drv::kVerdictAlpha);
  for (const Json& p : r.patterns()) {
    if (&p == &truth || !p.contains("confirmation") || also_true(p)) continue;
    INFO("other pattern: " << p.dump());
    CHECK(p.at("confirmation").at("verdict") != "confirmed");
  }
}

}  // namespace

TEST_CASE("forcing classes: main running the pattern's code first does not take the worker's role",
          "[forcing-classes]") {
  const std::string file = "force_init_by_main.c";
  const int read = program_line(file, "long before = acct->balance;");
  const int write = program_line(file, "acct->balance = after;");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_init_by_main", "200");
  // The tellers' two stores in the failing order (T2's, then T1's stale one) are the cause's last
  // two steps; once main's opening deposit no longer makes patterns (an order the threads'
  // creation fixes), that pair is forced too, and it may be confirmed.
  check_true_pattern(r, "R1-W2-W1", file, {read, write, write},
                     [&](const Json& p) { return pattern_is(p, "W1-W2", file, {write, write}); });
  const Json& c = forced_pattern(r, "R1-W2-W1", file, {read, write, write}).at("confirmation");
  CHECK(c.at("binding").get<std::string>().find("role 1 = T") != std::string::npos);
  CHECK(c.at("binding").get<std::string>().find("role 1 = T0") == std::string::npos);
}

TEST_CASE("forcing classes: a pattern in a loop is forced at the failing iteration", "[forcing-classes]") {
  const std::string file = "force_loop_seats.c";
  const int check = program_line(file, "if (flight.seats_left > 0) {");
  const int take = program_line(file, "flight.seats_left--;");
  TempDir dir;
  // Falcon ranks the check-then-act below the decrements' own patterns (the early iterations'
  // checks are followed by the other agent's decrement in passing runs too, while a seat is
  // left), so force the top 8. The check, the other's decrement, then T1's re-read of the count
  // (R1-W2-R1), or its first two steps (R1-W2), are the same check-then-act: orders of the
  // cause's own lines that start at the stale check.
  const LocalizedProgram r = localize_program(dir, "force_loop_seats", "200", {"--top", "8"});
  check_true_pattern(r, "R1-W2-W1", file, {check, take, take}, [&](const Json& p) {
    return pattern_is(p, "R1-W2-R1", file, {check, take, take}) || pattern_is(p, "R1-W2", file, {check, take});
  });
}

TEST_CASE("forcing classes: a partner created after the first step, among three workers", "[forcing-classes]") {
  const std::string file = "force_late_partner.c";
  const int read = program_line(file, "long total = ledger.total;");
  const int write = program_line(file, "ledger.total = total + fee;");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_late_partner", "200", {"--strategy", "random"});
  check_true_pattern(r, "R1-W2-W1", file, {read, write, write});
}

TEST_CASE("forcing classes: a step inside a lock region the partner needs", "[forcing-classes]") {
  const std::string file = "force_lock_region.c";
  const int read = program_line(file, "int stock = inv.stock;");
  const int write = program_line(file, "inv.stock = stock - n;");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_lock_region", "200", {"--strategy", "random"});
  check_true_pattern(r, "R1-W2-W1", file, {read, write, write});
}

TEST_CASE("forcing classes: a write inside the lock its reader needs is held at the lock call",
          "[forcing-classes]") {
  const std::string file = "force_writer_in_lock.c";
  const int read = program_line(file, "int interval = settings.interval_ms;");
  const int write = program_line(file, "settings.interval_ms = parsed.interval_ms;");
  const int lock = program_line(file, "pthread_mutex_lock(&settings_lock);");  // the loader's, first in the file
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_writer_in_lock", "200");
  check_true_pattern(r, "R1-W2", file, {read, write});
  const Json& c = forced_pattern(r, "R1-W2", file, {read, write}).at("confirmation");
  // Held at its write, the loader owned the lock the exporter was blocked on and had to be let
  // through: no forced run read first. Held at its lock call, every one did, and failed.
  REQUIRE(c.at("bindings_tried").size() == 2);
  const std::string held = c.at("bindings_tried").at(1).get<std::string>();
  CHECK(held.find("role 2 held at its lock " + file + ":" + std::to_string(lock) + " ") != std::string::npos);
  CHECK(c.at("binding") == held);
  CHECK(c.at("failed") == c.at("completed"));
  // The opposite order keeps the lock call with its thread: the loader's section, then the read.
  const Json& opposite = c.at("counterfactual");
  CHECK(opposite.at("order").get<std::string>().rfind("lock " + file + ":" + std::to_string(lock) + " ", 0) == 0);
  CHECK(opposite.at("outcome") == "order matters");
  CHECK(opposite.at("failed") == 0);
}

TEST_CASE("forcing classes: a pair that needs the partner's earlier check is forced in context",
          "[forcing-classes]") {
  const std::string file = "force_check_first.c";
  const int append = program_line(file, "int slot = table.count;");
  const int count = program_line(file, "table.count++;");
  TempDir dir;
  // W1 (count++) → R2 (append) ties with the main's read and the store order below the
  // check-then-act triples: force the top 5.
  const LocalizedProgram r = localize_program(dir, "force_check_first", "200", {"--top", "5"});
  INFO(r.run.process.out);
  const Json& c = forced_pattern(r, "W1-R2", file, {count, append}).at("confirmation");
  INFO(c.dump());
  // Every binding of the pair alone stalls: the partner looks the name up after the count++ and
  // returns, or it is let through inside its mount lock, which T1 needs for its count++. Held at
  // that lock call instead ("Held before its lock") the pair happens and fails, but its opposite
  // cannot happen: the partner reaches its lock call only once its own lookup missed. In the
  // failing run's context (its decisions replayed up to T1's count++) the partner has already
  // looked the name up, and the pair fails there too, its opposite order impossible. Nothing
  // shows that the pair, rather than the earlier lookup, decides: inconclusive, never confirmed.
  CHECK(c.at("verdict") == "inconclusive");
  CHECK(c.at("reason").get<std::string>().find("its opposite order could not be made to happen") != std::string::npos);
  REQUIRE(c.contains("in_context"));
  const Json& in_context = c.at("in_context");
  CHECK(in_context.at("context").get<std::string>().find("replayed up to its step 1") != std::string::npos);
  CHECK(in_context.at("context_lost") == 0);
  CHECK(in_context.at("completed").get<int>() >= static_cast<int>(drv::kMinCompletedRuns));
  CHECK(in_context.at("failed").get<int>() * 2 >= in_context.at("completed").get<int>());
  CHECK(in_context.at("outcome") == "opposite unrealized");
  REQUIRE(c.at("bindings_tried").size() == 6);
  CHECK(c.at("bindings_tried").at(3).get<std::string>().find("role 2 held at its lock " + file + ":") != std::string::npos);
  CHECK(c.at("bindings_tried").at(4).get<std::string>().find("in the failing run's context") != std::string::npos);
  // T1's count++ is inside its mount lock: both orders once more from its call of that lock. The
  // partner's lookup is done by then, so the opposite order fails as well: the lookup decides.
  const std::string from_entry = c.at("bindings_tried").at(5).get<std::string>();
  CHECK(from_entry.find("the lock it holds at step 1") != std::string::npos);
  CHECK(from_entry.find("fails as often") != std::string::npos);
}

TEST_CASE("forcing classes: a signal inside the lock its waiter needs is confirmed from the lock's call",
          "[forcing-classes]") {
  const std::string file = "force_signal_in_lock.c";
  const int signal = program_line(file, "pthread_cond_signal(&cache_ready);");
  const int wait = program_line(file, "pthread_cond_wait(&cache_ready, &cache_lock);");
  const int wait_lock = wait - 1;  // main's pthread_mutex_lock(&cache_lock), just above its wait
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_signal_in_lock", "200");
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  const Json& c = forced_pattern(r, "signal1-wait2", file, {signal, wait}).at("confirmation");
  INFO(c.dump());
  // Held at its wait, main holds the mutex the loader needs to signal, so it is let through and
  // waits first. Held at its lock call instead ("Held before its lock"), the loader signals with
  // nobody waiting and main then waits for ever. The opposite order keeps main's lock call with
  // it: main locks and waits, and is woken.
  CHECK(c.at("verdict") == "confirmed");
  CHECK(c.at("binding").get<std::string>().find("role 2 held at its lock " + file + ":" + std::to_string(wait_lock) + " ") !=
        std::string::npos);
  const Json& opposite = c.at("counterfactual");
  CHECK(opposite.at("outcome") == "order matters");
  CHECK(opposite.at("order").get<std::string>().rfind("lock " + file + ":" + std::to_string(wait_lock) + " ", 0) == 0);
  CHECK(opposite.at("completed").get<int>() >= static_cast<int>(drv::kMinCompletedRuns));
  CHECK(opposite.at("failed").get<int>() * 2 < opposite.at("completed").get<int>());
  CHECK(c.at("failed").get<int>() * 2 >= c.at("completed").get<int>());
  // The forced failing run replays to the same deadlock.
  REQUIRE(c.contains("schedule"));
  const Process replay = run_replay(dir, {"--schedule", c.at("schedule").get<std::string>()},
                                    binary("program_inst", "force_signal_in_lock"));
  INFO(replay.describe());
  CHECK(replay.exit_code == 1);
  CHECK(contains(replay.out, "replay matched schedule"));
  CHECK(contains(replay_fail_message(replay.out), "deadlock"));
}

TEST_CASE("forcing classes: a lost wakeup's check before the flag is not refuted", "[forcing-classes]") {
  const std::string file = "force_flag_wakeup.c";
  const int check = program_line(file, "while (!finished)");
  const int raise = program_line(file, "finished = 1;");
  const int signal = program_line(file, "pthread_cond_signal(&done_cv);");
  const int wait = program_line(file, "pthread_cond_wait(&done_cv, &lock);");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_flag_wakeup", "400");
  // The signal before the wait is the order that loses the wakeup: confirmed.
  check_true_pattern(r, "signal1-wait2", file, {signal, wait},
                     [&](const Json& p) { return pattern_is(p, "R1-W2", file, {check, raise}); });
  // Main's test of the flag before the writer raises it is the other half of the cause: every
  // failing run had it, and forced alone (the signal then free to come after the wait) it fails
  // only now and then. Whatever forcing shows, it must not send the user away from it: never
  // `refuted` (docs/forcing.md, "Refuted, but every failure had it").
  const Json& half = forced_pattern(r, "R1-W2", file, {check, raise});
  INFO(half.dump());
  CHECK(half.at("failed").get<int>() == r.run.json.at("summary").at("failures").get<int>());
  CHECK(half.at("passed") == 0);
  const Json& c = half.at("confirmation");
  CHECK(c.at("verdict") != "refuted");
  if (c.contains("exploration")) {
    CHECK(c.at("exploration").at("failing_with") == c.at("exploration").at("failing"));
    CHECK(c.at("verdict") == "inconclusive");
  }
}

TEST_CASE("forcing classes: a half of a two-variable bug is confirmed in the failing run's context",
          "[forcing-classes]") {
  const std::string file = "force_pair_half.c";
  const int store_capacity = program_line(file, "atomic_store(&capacity, 8);");
  const int load_capacity = program_line(file, "const int cap = atomic_load(&capacity);");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_pair_half", "200", {"--top", "5"});
  INFO(r.run.process.out);
  const Json& c = forced_pattern(r, "W1-R2", file, {store_capacity, load_capacity}).at("confirmation");
  INFO(c.dump());
  // Forced alone the monitor's load of the new capacity is followed by the fill level's race and
  // by a second round: not confirmed. From the moment the failing run stored the capacity, the
  // load after the store fails, the load before it (the opposite order) does not.
  CHECK(c.at("verdict") == "confirmed");
  REQUIRE(c.contains("context"));
  CHECK(c.at("context").get<std::string>().find("replayed up to its step 1") != std::string::npos);
  CHECK(c.at("context_lost") == 0);
  REQUIRE(c.contains("alone"));
  CHECK(c.at("alone").at("verdict") != "confirmed");
  CHECK(c.at("counterfactual").at("outcome") == "order matters");
  CHECK(c.at("counterfactual").at("test").at("alpha").get<double>() == Approx(drv::kVerdictAlpha));
  CHECK(c.at("counterfactual").at("completed").get<int>() >= static_cast<int>(drv::kMinCompletedRuns));
  CHECK(c.at("counterfactual").at("failed").get<int>() * 2 < c.at("counterfactual").at("completed").get<int>());
}

TEST_CASE("forcing classes: a half that every failing run ends before its write is not refuted",
          "[forcing-classes]") {
  const std::string file = "force_cut_short_half.c";
  const int read_height = program_line(file, "int height = max_height;");
  const int store_height = program_line(file, "max_height = 32;");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_cut_short_half", "400");
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  const Json& half = forced_pattern(r, "R1-W2", file, {read_height, store_height});
  INFO(half.dump());
  // Every failing run read the old height and failed before the admin stored the new one: the
  // order cut short, in each of them.
  const int failures = r.run.json.at("summary").at("failures").get<int>();
  CHECK(half.at("failed").get<int>() == failures);
  CHECK(half.at("failed_cut_short").get<int>() == failures);
  // Forced alone it fails no more than the baseline (the width's half is the other part), and at
  // a 4% baseline its opposite order cannot show it is needed. The exploration can: the read
  // before the store is in every failing run, so it is not refuted (docs/forcing.md, "Refuted,
  // but every failure had it").
  const Json& c = half.at("confirmation");
  CHECK(c.at("verdict") != "refuted");
  if (c.contains("exploration")) {
    CHECK(c.at("exploration").at("failing_with").get<int>() == failures);
    CHECK(c.at("exploration").at("failing").get<int>() == failures);
  }
}

TEST_CASE("forcing classes: a pair of a two-variable cause is confirmed as a part of it", "[forcing-classes]") {
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_coupled_pair", "400");
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  const Json& localization = r.run.json.at("localization");
  // Locon's finding couples the weight's order with the count's. Confirmed, each pair is reversed
  // alone (the other kept); the count's reversal passes, so that pair is needed.
  const Json& finding = localization.at("locon").at("findings").at(0).at("confirmation");
  INFO(finding.dump());
  REQUIRE(finding.at("verdict") == "confirmed");
  REQUIRE(finding.contains("halves"));
  CHECK(finding.at("halves").size() == 2);
  const bool some_needed = std::any_of(finding.at("halves").begin(), finding.at("halves").end(),
                                       [](const Json& h) { return h.at("needed").get<bool>(); });
  CHECK(some_needed);
  // ConSeq's prediction is that pair alone (the count's increment before the auditor's read):
  // forced by itself it is not confirmed, as the finding's part it is.
  const Json& prediction = localization.at("prediction").at("confirmations").at(0);
  INFO(prediction.dump());
  CHECK(prediction.at("verdict") == "confirmed");
  REQUIRE(prediction.contains("coupled_part"));
  const Json& part = prediction.at("coupled_part");
  CHECK(part.at("partner").get<std::string>().find("force_coupled_pair.c:39") != std::string::npos);
  CHECK(part.at("reversed").at("needed") == true);
  CHECK(part.at("reversed").at("failed").get<int>() * 2 < part.at("reversed").at("completed").get<int>());
  CHECK(part.at("finding_failed").get<int>() * 2 >= part.at("finding_completed").get<int>());
  // The finding's forced failing run is saved and named for replay under the part.
  REQUIRE(part.contains("replay"));
  CHECK(part.at("replay").get<std::string>().find("ctrlsched replay --schedule") == 0);
  REQUIRE(prediction.contains("alone"));
  CHECK(prediction.at("alone").at("verdict") != "confirmed");
  CHECK(r.run.process.out.find("confirmed: a part of a two-variable cause") != std::string::npos);
  // Falcon's half of the other straddle (the count read before the increment) is in no Locon
  // finding: coupled with Falcon's confirmed weight flow (the add before the weight read), in the
  // threads' program order, it is confirmed as a part too.
  const std::string file = "force_coupled_pair.c";
  const int read_count = program_line(file, "long count = parcels;");
  const int add_count = program_line(file, "parcels++;");
  const int add_weight = program_line(file, "weight_kg += PARCEL_KG;");
  const int read_weight = program_line(file, "long weight = weight_kg;");
  const Json& stale_count = forced_pattern(r, "R1-W2", file, {read_count, add_count}).at("confirmation");
  INFO(stale_count.dump());
  CHECK(stale_count.at("verdict") == "confirmed");
  REQUIRE(stale_count.contains("coupled_part"));
  const std::string partner = stale_count.at("coupled_part").at("partner").get<std::string>();
  const std::size_t add_at = partner.find(file + ":" + std::to_string(add_weight));
  const std::size_t read_at = partner.find(file + ":" + std::to_string(read_weight));
  CHECK(read_at != std::string::npos);
  CHECK(add_at < read_at);
  CHECK(stale_count.at("coupled_part").at("reversed").at("needed") == true);
}

TEST_CASE("forcing classes: a lock order at a loop's third call is bound to it and confirmed in context",
          "[forcing-classes]") {
  const std::string file = "force_lock_evict.c";
  const int open_lock = program_line(file, "static void open_session(int id) {") + 1;
  const int size_lock = program_line(file, "static int table_size(void) {") + 1;
  TempDir dir;
  const LocalizedProgram r =
      localize_program(dir, "force_lock_evict", "200", {"--top", "5", "--strategy", "portfolio"});
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  const Json& c = forced_pattern(r, "lock1-lock2", file, {open_lock, size_lock}).at("confirmation");
  INFO(c.dump());
  // Only the third open evicts, under the audit lock: the reference run's occurrence is the
  // opener's third call of that lock, the reporter's first (its blocked call counted once).
  CHECK(c.at("binding").get<std::string>().find("its 3rd lock at step 1") != std::string::npos);
  CHECK(c.at("binding").get<std::string>().find("its 1st lock at step 2") != std::string::npos);
  // Forced alone the reporter may not hold the audit lock yet; from the failing run's moment it
  // does, and the opposite order from the same moment never deadlocks.
  CHECK(c.at("verdict") == "confirmed");
  REQUIRE(c.contains("context"));
  CHECK(c.at("context_lost") == 0);
  REQUIRE(c.contains("alone"));
  CHECK(c.at("alone").at("verdict") != "confirmed");
  CHECK(c.at("counterfactual").at("outcome") == "order matters");
  CHECK(c.at("counterfactual").at("completed").get<int>() >= static_cast<int>(drv::kMinCompletedRuns));
  CHECK(c.at("counterfactual").at("failed") == 0);
}

TEST_CASE("forcing classes: a symptom read after the join is no pattern; the cause is confirmed",
          "[forcing-classes]") {
  const std::string file = "force_symptom.c";
  const int increment = program_line(file, "for (int i = 0; i < ITEMS; i++) processed++;");
  const int error_store = program_line(file, "if (processed != ITEMS * WORKERS) error_code = ERR_LOST;");
  const int check = program_line(file, "assert(error_code == 0");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_symptom", "200", {"--top", "5"});
  check_true_pattern(r, "R1-W2-W1", file, {increment, increment, increment});
  for (const Json& p : r.patterns()) {
    INFO(p.dump());
    CHECK_FALSE(pattern_is(p, "W1-R2", file, {error_store, check}));
  }
  // The collector counted what it left out, and the report says so.
  CHECK(r.run.json.at("localization").at("falcon").at("fixed_by_lifecycle").get<int>() > 0);
  CHECK(contains(r.run.process.out, "of orders thread creation or join fixes not counted"));
}

TEST_CASE("forcing classes: a symptom is ranked after the causes and never confirmed", "[forcing-classes]") {
  const std::string file = "force_symptom_monitor.c";
  const int increment = program_line(file, "for (int i = 0; i < ITEMS; i++) processed++;");
  const int error_store = program_line(file, "if (processed != ITEMS * WORKERS) error_code = ERR_LOST;");
  const int check = program_line(file, "assert(error_code == 0");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_symptom_monitor", "200", {"--top", "5"});
  // The two stores of the lost update in the failing order are the cause's last two steps.
  check_true_pattern(r, "R1-W2-W1", file, {increment, increment, increment},
                     [&](const Json& p) { return pattern_is(p, "W1-W2", file, {increment, increment}); });
  bool seen_symptom = false, seen_cause = false;
  for (const Json& p : r.patterns()) {
    const bool symptom = pattern_is(p, "W1-R2", file, {error_store, check});
    if (symptom) {
      seen_symptom = true;
      CHECK(seen_cause);  // ranked after the cause
      CHECK(p.at("symptom") == true);
      if (p.contains("confirmation")) {
        INFO(p.at("confirmation").dump());
        CHECK(p.at("confirmation").at("verdict") != "confirmed");
      }
    }
    if (pattern_is(p, "R1-W2-W1", file, {increment, increment, increment})) {
      seen_cause = true;
      CHECK(p.at("symptom") == false);
    }
  }
  CHECK(seen_symptom);
}

TEST_CASE("forcing classes: an order that cannot happen is unrealized, with the step that never happened",
          "[forcing-classes]") {
  // The assertion's read of the balance, then a teller's store: main reads only after joining
  // every teller, so no store can follow.
  const std::string file = "force_init_by_main.c";
  const int store = program_line(file, "acct->balance = after;");
  const int assertion = program_line(file, "assert(book.balance == expected");
  const std::string name = binary("program_inst", "force_init_by_main");
  drv::LaunchTarget target;
  target.path = name;
  target.argv = {name};
  target.shim_path = drv::locate_shim();
  drv::Symbolizer symbolizer;
  drv::ClassifyContext context;
  context.timeout_seconds = 20;
  context.symbolize = symbolizer.function();
  // The raw sites, from one run's access pairs.
  std::uint64_t store_site = 0, read_site = 0;
  drv::DirectedBatch plain;
  plain.seeds = 1;
  plain.collectors = ctrlsched::kCollectAccessPairs;
  drv::run_directed(target, plain, context, name,
                    [&](std::uint64_t, const ctrlsched::RunRecord& record, const drv::RunResult& result) {
                      const auto* summary = reinterpret_cast<const ctrlsched::AccessPairSummary*>(
                          reinterpret_cast<const std::uint8_t*>(&record) + ctrlsched::kSummaryOffset);
                      REQUIRE(result.access_pairs.has_value());
                      for (std::uint32_t i = 0; i < summary->used; ++i) {
                        const auto& text = result.access_pairs->pairs[i];
                        if (text.head.find(file + ":" + std::to_string(store) + ")") != std::string::npos &&
                            text.tail.find(file + ":" + std::to_string(assertion) + ")") != std::string::npos) {
                          store_site = summary->pairs[i].head_site;
                          read_site = summary->pairs[i].tail_site;
                        }
                      }
                    });
  REQUIRE(store_site != 0);
  REQUIRE(read_site != 0);
  drv::ConfirmRequest request;
  request.batch.seeds = 20;
  request.batch.directive = ctrlsched::pair_directive({read_site, false}, {store_site, true}, 200);
  request.batch.jobs = 2;
  request.batch.timeout_seconds = 20;
  request.original = drv::FailureIdentity{drv::OutcomeKind::Assertion, "unused"};
  request.baseline_rate = 0.1;
  request.step_names = {"R assertion", "W store"};
  const drv::ConfirmationResult c = drv::confirm(target, request, context, name);
  INFO(drv::confirmation_json(c).dump());
  CHECK(c.verdict == drv::Verdict::Unrealized);
  CHECK(c.completed == 0);
  CHECK_FALSE(c.refuted);
  CHECK(c.reason == "no thread performed step 2 (W store) in 20/20 forced runs");
  CHECK(drv::confirmation_json(c).at("verdict") == "unrealized");
}

TEST_CASE("forcing classes: a read of a published placeholder is realized, never refuted on a later fill",
          "[forcing-classes]") {
  const std::string file = "force_publish_then_fill.c";
  const int placeholder = program_line(file, "l->max_conns = 0;");
  const int fill = program_line(file, "l->max_conns = parse_limit(\"max_conns\");");
  const int read = program_line(file, "*accepted = l->max_conns > 0;");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_publish_then_fill", "400");
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  // Held at every point after its placeholder store, the creator has not published the table
  // yet, the reader takes the slow path and blocks on the creator's lock, the creator runs on and
  // fills the field: the read comes after the fill, no dirty read (forcing.h rule 7 stops such a
  // run). Held only at the table's field, the creator publishes first and the read sees 0.
  const Json& dirty = forced_pattern(r, "W1-R2-W1", file, {placeholder, read, fill});
  const Json& c = dirty.at("confirmation");
  INFO(c.dump());
  CHECK(c.at("verdict") == "confirmed");
  CHECK(c.at("binding").get<std::string>().find("held only at its accesses to the location") != std::string::npos);
  // Locon's pair of the same read with the placeholder store: confirmed the same way, where it
  // used to be refuted on runs whose read saw the fill.
  const Json& pair = r.run.json.at("localization").at("locon").at("findings").at(0);
  INFO(pair.dump());
  REQUIRE(pair.contains("confirmation"));
  CHECK(pair.at("confirmation").at("verdict") == "confirmed");
}

TEST_CASE("forcing classes: an order that fails at another assertion than the reference run's is not refuted",
          "[forcing-classes]") {
  const std::string file = "force_two_checks.c";
  const int read_connections = program_line(file, "int connections = limits.max_connections;");
  const int read_queue = program_line(file, "int queue = limits.max_queue;");
  const int store_connections = program_line(file, "limits.max_connections = 64;");
  const int store_queue = program_line(file, "limits.max_queue = 256;");
  TempDir dir;
  const LocalizedProgram r = localize_program(dir, "force_two_checks", "200");
  INFO(r.run.process.out);
  REQUIRE(r.run.process.exit_code == 1);
  // Both read-before-store orders are causes; whichever assertion the reference run hit, the
  // other order fails at the other one. Neither may be refuted (docs/forcing.md, "Refuted, but it
  // fails another way"), and one of them is confirmed.
  const Json& connections = forced_pattern(r, "R1-W2", file, {read_connections, store_connections});
  const Json& queue = forced_pattern(r, "R1-W2", file, {read_queue, store_queue});
  INFO(connections.dump());
  INFO(queue.dump());
  const Json& c = connections.at("confirmation");
  const Json& q = queue.at("confirmation");
  CHECK(c.at("verdict") != "refuted");
  CHECK(q.at("verdict") != "refuted");
  CHECK((c.at("verdict") == "confirmed" || q.at("verdict") == "confirmed"));
  // The one not confirmed failed another way in most of its completed runs, and says so.
  const Json& other = c.at("verdict") == "confirmed" ? q : c;
  if (other.at("verdict") != "confirmed") {
    CHECK(other.at("failed_other_completed").get<int>() * 2 > other.at("completed").get<int>());
    CHECK(other.at("reason").get<std::string>().find("failed another way (assertion at force_two_checks.c:") !=
          std::string::npos);
  }
}

// The ground-truth rule of tests/eval/truth.h (docs/evaluation.md, "How the judge decides"):
// sides marked with their object, per-object orders of a cause, and lock-order cycles.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "truth.h"

using ctrlsched::eval::ProgramTruth;
using ctrlsched::eval::ReportedSide;
using ctrlsched::eval::Truth;
using ctrlsched::eval::TruthSide;

namespace {

ReportedSide side(const std::string& kind, int role, const std::string& file, int line) {
  ReportedSide s;
  ctrlsched::eval::set_kind(s, kind);
  s.role = role;
  s.file = file;
  s.line = line;
  return s;
}

Truth program(const std::string& name, const std::string& header) {
  Truth truth;
  std::istringstream in(header);
  const ProgramTruth parsed = truth.add_program(name, name + ".c", in);
  INFO(header);
  REQUIRE(parsed.problems.empty());
  return truth;
}

Truth::CycleThread cycle_thread(const std::string& holds, int acquired, const std::string& waits_for, int waits,
                                const std::string& file) {
  Truth::CycleThread t;
  t.holds = holds;
  t.acquired = side("lock", 1, file, acquired);
  t.waits_for = waits_for;
  t.waits = side("lock", 1, file, waits);
  return t;
}

const char* const kAbba =
    "// ctrlsched-truth: class=deadlock fails=deadlock\n"
    "// ctrlsched-truth: cause checking,savings lock1@20:checking lock2@20:savings lock2@21:checking lock1@21:savings\n";

}  // namespace

TEST_CASE("truth: a side may name its object after the line", "[truth]") {
  TruthSide s;
  REQUIRE(ctrlsched::eval::parse_truth_side("lock2@31:checking", s));
  CHECK(s.kind == "lock");
  CHECK(s.role == 2);
  CHECK(s.line == 31);
  CHECK(s.object == "checking");
  REQUIRE(ctrlsched::eval::parse_truth_side("W1@12:Cache::size_", s));
  CHECK(s.object == "Cache::size_");
  REQUIRE(ctrlsched::eval::parse_truth_side("R1@23", s));
  CHECK(s.object.empty());
  CHECK_FALSE(ctrlsched::eval::parse_truth_side("R1@23x", s));
  CHECK_FALSE(ctrlsched::eval::parse_truth_side("R1@23:", s));

  // An object that is not one of the cause's locations is a header problem; with `*` any label goes.
  Truth truth;
  std::istringstream bad("// ctrlsched-truth: class=deadlock fails=deadlock\n"
                         "// ctrlsched-truth: cause checking lock1@20:checking lock2@21:savings\n");
  CHECK_FALSE(truth.add_program("abba", "abba.c", bad).problems.empty());
  std::istringstream labels("// ctrlsched-truth: class=deadlock fails=deadlock\n"
                            "// ctrlsched-truth: cause * lock1@20:a lock2@20:b lock2@21:a lock1@21:b\n");
  CHECK(truth.add_program("heap", "heap.c", labels).problems.empty());
}

TEST_CASE("truth: a cause's locations are names, their +offsets ignored", "[truth]") {
  // Two writers put the member's offset in the cause's locations; the README says it is ignored
  // there (before, "g_book+40" matched no report and marks on "g_codecs" were header problems).
  Truth book = program("order_book", "// ctrlsched-truth: class=check_then_act fails=assertion\n"
                                     "// ctrlsched-truth: cause g_book+40 R1@27 W2@39 R1@38\n");
  const std::vector<ReportedSide> check_fill{side("R", 1, "order_book.c", 27), side("W", 2, "order_book.c", 39)};
  CHECK(book.is_true("order_book", check_fill, "g_book+40"));
  CHECK(book.is_true("order_book", check_fill, "g_book"));
  CHECK_FALSE(book.is_true("order_book", check_fill, "g_trades"));

  Truth store = program("config_reload",
                        "// ctrlsched-truth: class=double_checked_locking fails=assertion\n"
                        "// ctrlsched-truth: cause g_store,g_store+4 W1@39:g_store R2@20:g_store R2@55:g_store+4 "
                        "W1@40:g_store+4\n");
  // A mark with an offset still matches only that member.
  const std::vector<ReportedSide> port{side("R", 2, "config_reload.c", 55), side("W", 1, "config_reload.c", 40)};
  CHECK(store.is_true("config_reload", port, "g_store+4"));
  CHECK_FALSE(store.is_true("config_reload", port, "g_store+8"));
}

TEST_CASE("truth: each lock object's half of a lock-order cycle is true, reversed it is not", "[truth]") {
  const Truth truth = program("abba_transfer", kAbba);
  const std::string f = "abba_transfer.c";
  const std::vector<ReportedSide> half = {side("lock", 1, f, 20), side("lock", 2, f, 21)};
  CHECK(truth.is_true("abba_transfer", half, "checking"));
  CHECK(truth.is_true("abba_transfer", half, "savings"));
  CHECK(truth.is_true("abba_transfer", half, ""));  // Locon's pairs name no location
  CHECK_FALSE(truth.is_true("abba_transfer", half, "other"));
  // The wrong direction: the second lock before the first.
  CHECK_FALSE(truth.is_true("abba_transfer", {side("lock", 1, f, 21), side("lock", 2, f, 20)}, "checking"));
  CHECK_FALSE(truth.is_true("abba_transfer", {side("lock", 1, f, 21), side("lock", 2, f, 20)}, ""));
  // Sides 1-2 of the interleaving are contiguous but on two objects: no one object sees that order.
  CHECK_FALSE(truth.is_true("abba_transfer", {side("lock", 1, f, 20), side("lock", 2, f, 20)}, "checking"));
  CHECK_FALSE(truth.is_true("abba_transfer", {side("lock", 1, f, 20), side("lock", 2, f, 20)}, ""));
  // One thread's two locks are no order between threads.
  CHECK_FALSE(truth.is_true("abba_transfer", {side("lock", 1, f, 20), side("lock", 1, f, 21)}, "checking"));
  // A site in another file is never true.
  CHECK_FALSE(truth.is_true("abba_transfer", {side("lock", 1, "gthr-default.h", 20), side("lock", 2, f, 21)}, "checking"));
}

TEST_CASE("truth: a per-object order inside a mixed interleaving (a lost wakeup)", "[truth]") {
  const Truth truth = program("lost_wakeup",
                              "// ctrlsched-truth: class=lost_wakeup fails=deadlock\n"
                              "// ctrlsched-truth: cause data_ready,data_lock,data_cond R1@19:data_ready lock2@30:data_lock "
                              "W2@32:data_ready signal2@33:data_cond lock1@20:data_lock wait1@21:data_cond\n");
  const std::string f = "lost_wakeup.c";
  // The producer's lock before the consumer's, on the lock.
  CHECK(truth.is_true("lost_wakeup", {side("lock", 1, f, 30), side("lock", 2, f, 20)}, "data_lock"));
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("lock", 1, f, 20), side("lock", 2, f, 30)}, "data_lock"));
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("lock", 1, f, 30), side("lock", 2, f, 20)}, "data_ready"));
  // The check before the set, on the flag, though the producer's lock comes between them.
  CHECK(truth.is_true("lost_wakeup", {side("R", 1, f, 19), side("W", 2, f, 32)}, "data_ready"));
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("W", 1, f, 32), side("R", 2, f, 19)}, "data_ready"));
  // Signal before wait, on the condition variable.
  CHECK(truth.is_true("lost_wakeup", {side("signal", 1, f, 33), side("wait", 2, f, 21)}, "data_cond"));
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("wait", 1, f, 21), side("signal", 2, f, 33)}, "data_cond"));
  // Contiguous in the interleaving, but a read of the flag then a lock: two objects.
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("R", 1, f, 19), side("lock", 2, f, 30)}, ""));
}

TEST_CASE("truth: runs stay contiguous in an object's projection", "[truth]") {
  // With both critical sections written out, the producer's lock (30) and the consumer's wait
  // releasing the lock (unlock 21) are not adjacent on the lock: that order also happens when the
  // consumer locks first and the producer's lock blocks until the wait releases it (a passing run).
  const Truth truth = program("lost_wakeup",
                              "// ctrlsched-truth: class=lost_wakeup fails=deadlock\n"
                              "// ctrlsched-truth: cause data_ready,data_lock R1@19:data_ready lock2@30:data_lock "
                              "W2@32:data_ready unlock2@34:data_lock lock1@20:data_lock unlock1@21:data_lock\n");
  const std::string f = "lost_wakeup.c";
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("lock", 1, f, 30), side("unlock", 2, f, 21)}, "data_lock"));
  CHECK_FALSE(truth.is_true("lost_wakeup", {side("lock", 1, f, 30), side("lock", 2, f, 20)}, "data_lock"));
  CHECK(truth.is_true("lost_wakeup", {side("unlock", 1, f, 34), side("lock", 2, f, 20)}, "data_lock"));
  CHECK(truth.is_true("lost_wakeup", {side("lock", 1, f, 30), side("unlock", 1, f, 34), side("lock", 2, f, 20)}, "data_lock"));
}

TEST_CASE("truth: causes without objects are judged as before", "[truth]") {
  const Truth truth = program("bank",
                              "// ctrlsched-truth: class=lost_update fails=assertion\n"
                              "// ctrlsched-truth: cause accounts R1@23 W2@23 W1@23\n");
  const std::string f = "bank.c";
  CHECK(truth.is_true("bank", {side("R", 1, f, 23), side("W", 2, f, 23), side("W", 1, f, 23)}, "accounts+24"));
  CHECK(truth.is_true("bank", {side("W", 1, f, 23), side("W", 2, f, 23)}, ""));
  CHECK_FALSE(truth.is_true("bank", {side("R", 1, f, 23), side("W", 2, f, 23)}, "other"));
  CHECK_FALSE(truth.is_true("bank", {side("R", 1, f, 23), side("W", 1, f, 23)}, "accounts"));
  // Unmarked causes need contiguous runs: a three-thread cause's first and last side are not one.
  // By the extension (a run of the cause plus sides on its lines) T1's read, T2's write and T1's
  // write are true: that is the two-thread lost update inside the three-thread one.
  Truth three = program("log3", "// ctrlsched-truth: class=lost_update fails=assertion\n"
                                "// ctrlsched-truth: cause g_log R1@20 W2@20 W3@20 W1@20\n");
  const std::vector<ReportedSide> skips_t3 = {side("R", 1, "log3.c", 20), side("W", 2, "log3.c", 20), side("W", 1, "log3.c", 20)};
  CHECK_FALSE(three.is_true_strict("log3", skips_t3, "g_log"));
  CHECK(three.is_true("log3", skips_t3, "g_log"));
  three.set_strict_only(true);
  CHECK_FALSE(three.is_true("log3", skips_t3, "g_log"));
  three.set_strict_only(false);
  CHECK(three.is_true("log3", {side("W", 1, "log3.c", 20), side("W", 2, "log3.c", 20), side("W", 3, "log3.c", 20)}, "g_log"));
}

TEST_CASE("truth: a lock-order cycle is true when it names the cause's objects and lines", "[truth]") {
  const Truth truth = program("abba_transfer", kAbba);
  const std::string f = "abba_transfer.c";
  const std::vector<Truth::CycleThread> cycle = {cycle_thread("checking", 20, "savings", 21, f),
                                                 cycle_thread("savings", 20, "checking", 21, f)};
  CHECK(truth.is_true_cycle("abba_transfer", cycle));
  // The same cycle listed from the other thread.
  CHECK(truth.is_true_cycle("abba_transfer", {cycle[1], cycle[0]}));
  // A lock of a global the cause does not name.
  CHECK_FALSE(truth.is_true_cycle("abba_transfer", {cycle_thread("checking", 20, "audit", 21, f),
                                                    cycle_thread("audit", 20, "checking", 21, f)}));
  // Right objects, wrong lines: the locks taken at 21 and waited for at 20.
  CHECK_FALSE(truth.is_true_cycle("abba_transfer", {cycle_thread("checking", 21, "savings", 20, f),
                                                    cycle_thread("savings", 21, "checking", 20, f)}));
  // Sites inside a library header.
  CHECK_FALSE(truth.is_true_cycle("abba_transfer", {cycle_thread("checking", 20, "savings", 21, "gthr-default.h"),
                                                    cycle_thread("savings", 20, "checking", 21, "gthr-default.h")}));
  // One thread is no cycle.
  CHECK_FALSE(truth.is_true_cycle("abba_transfer", {cycle[0]}));
}

TEST_CASE("truth: a cycle through a callback, objects named with an offset", "[truth]") {
  const Truth truth = program("observer",
                              "// ctrlsched-truth: class=deadlock fails=deadlock\n"
                              "// ctrlsched-truth: cause g_thermostat,g_display lock1@61:g_thermostat lock2@36:g_display "
                              "lock2@55:g_thermostat lock1@32:g_display\n");
  const std::string f = "observer.cpp";
  CHECK(truth.is_true_cycle("observer", {cycle_thread("g_thermostat", 61, "g_display+8", 32, f),
                                         cycle_thread("g_display+8", 36, "g_thermostat", 55, f)}));
  // The objects swapped: the thermostat's lock said to be taken at the display's line.
  CHECK_FALSE(truth.is_true_cycle("observer", {cycle_thread("g_display+8", 61, "g_thermostat", 32, f),
                                               cycle_thread("g_thermostat", 36, "g_display+8", 55, f)}));
  // The per-object halves: the thermostat's (61 before 55) and the display's (36 before 32).
  CHECK(truth.is_true("observer", {side("lock", 1, f, 61), side("lock", 2, f, 55)}, "g_thermostat"));
  CHECK(truth.is_true("observer", {side("lock", 1, f, 36), side("lock", 2, f, 32)}, "g_display+8"));
  CHECK_FALSE(truth.is_true("observer", {side("lock", 1, f, 36), side("lock", 2, f, 32)}, "g_thermostat"));
  CHECK_FALSE(truth.is_true("observer", {side("lock", 1, f, 32), side("lock", 2, f, 36)}, "g_display+8"));
}

TEST_CASE("truth: two locks that are members of one global are told apart by their offset", "[truth]") {
  // A cache with a map lock at offset 0 and a list lock at +40 of one global.
  const Truth truth = program("lru", "// ctrlsched-truth: class=deadlock fails=deadlock\n"
                                     "// ctrlsched-truth: cause g_cache lock1@26:g_cache lock2@37:g_cache+40 "
                                     "lock2@41:g_cache lock1@30:g_cache+40\n");
  const std::string f = "lru.c";
  CHECK(truth.is_true("lru", {side("lock", 1, f, 26), side("lock", 2, f, 41)}, "g_cache"));
  CHECK(truth.is_true("lru", {side("lock", 1, f, 37), side("lock", 2, f, 30)}, "g_cache+40"));
  CHECK_FALSE(truth.is_true("lru", {side("lock", 1, f, 37), side("lock", 2, f, 30)}, "g_cache"));
  CHECK_FALSE(truth.is_true("lru", {side("lock", 1, f, 37), side("lock", 2, f, 30)}, "g_cache+8"));
  CHECK(truth.is_true_cycle("lru", {cycle_thread("g_cache", 26, "g_cache+40", 30, f),
                                    cycle_thread("g_cache+40", 37, "g_cache", 41, f)}));
  CHECK_FALSE(truth.is_true_cycle("lru", {cycle_thread("g_cache+40", 26, "g_cache", 30, f),
                                          cycle_thread("g_cache", 37, "g_cache+40", 41, f)}));
  // A mark must still name one of the cause's locations.
  Truth bad;
  std::istringstream in("// ctrlsched-truth: class=deadlock fails=deadlock\n"
                        "// ctrlsched-truth: cause g_cache lock1@26:g_other+40 lock2@37:g_cache\n");
  CHECK_FALSE(bad.add_program("lru", "lru.c", in).problems.empty());
}

TEST_CASE("truth: a cycle against a cause without objects or on heap objects", "[truth]") {
  // Without marks only lines, roles and each thread's own order are compared.
  const Truth plain = program("lru", "// ctrlsched-truth: class=deadlock fails=deadlock\n"
                                     "// ctrlsched-truth: cause g_cache lock1@26 lock2@37 lock2@41 lock1@30\n");
  const std::string f = "lru.c";
  CHECK(plain.is_true_cycle("lru", {cycle_thread("0x1000", 26, "0x2000", 30, f), cycle_thread("0x2000", 37, "0x1000", 41, f)}));
  CHECK_FALSE(plain.is_true_cycle("lru", {cycle_thread("0x1000", 30, "0x2000", 26, f), cycle_thread("0x2000", 37, "0x1000", 41, f)}));
  // `*` with labels: addresses match any label, but the two halves must be on the labelled objects.
  const Truth heap = program("heap", "// ctrlsched-truth: class=deadlock fails=deadlock\n"
                                     "// ctrlsched-truth: cause * lock1@20:a lock2@20:b lock2@21:a lock1@21:b\n");
  CHECK(heap.is_true_cycle("heap", {cycle_thread("0x1000", 20, "0x2000", 21, "heap.c"),
                                    cycle_thread("0x2000", 20, "0x1000", 21, "heap.c")}));
  CHECK(heap.is_true("heap", {side("lock", 1, "heap.c", 20), side("lock", 2, "heap.c", 21)}, "0x1000"));
  CHECK_FALSE(heap.is_true("heap", {side("lock", 1, "heap.c", 20), side("lock", 2, "heap.c", 20)}, "0x1000"));
}

TEST_CASE("a true run covers the cause's source lines, or at least two of them") {
  const Truth spin = program("tas", "// ctrlsched-truth: class=check_then_act fails=assertion\n"
                                    "// ctrlsched-truth: cause g_lock R1@16 W2@17 W1@17\n");
  // The two stores at line 17 are a step of the interleaving, but not the check that makes it a bug.
  CHECK_FALSE(spin.is_true("tas", {side("W", 1, "tas.c", 17), side("W", 2, "tas.c", 17)}, "g_lock"));
  CHECK(spin.is_true("tas", {side("R", 1, "tas.c", 16), side("W", 2, "tas.c", 17)}, "g_lock"));
  CHECK(spin.is_true("tas", {side("R", 1, "tas.c", 16), side("W", 2, "tas.c", 17), side("W", 1, "tas.c", 17)}, "g_lock"));
  // A cause on one line: a run on that line has all of the cause's lines.
  const Truth bank = program("bank", "// ctrlsched-truth: class=lost_update fails=assertion\n"
                                     "// ctrlsched-truth: cause accounts R1@23 W2@23 W1@23\n");
  CHECK(bank.is_true("bank", {side("W", 1, "bank.c", 23), side("W", 2, "bank.c", 23)}, "accounts"));
}

TEST_CASE("a report that says more: a run of the cause, its other sides on the cause's lines") {
  const Truth pool = program("lazy_pool", "// ctrlsched-truth: class=check_then_act fails=assertion\n"
                                          "// ctrlsched-truth: cause g_pool_ready R1@31 W2@33\n");
  const std::string f = "lazy_pool.c";
  // The check, the other thread's set, its own second set: the cause and one more step on line 33.
  const std::vector<ReportedSide> says_more = {side("R", 1, f, 31), side("W", 2, f, 33), side("W", 1, f, 33)};
  CHECK_FALSE(pool.is_true_strict("lazy_pool", says_more, "g_pool_ready"));
  CHECK(pool.is_true("lazy_pool", says_more, "g_pool_ready"));
  // A side on another line is not the cause's.
  CHECK_FALSE(pool.is_true("lazy_pool", {side("R", 1, f, 31), side("W", 2, f, 33), side("W", 1, f, 35)}, "g_pool_ready"));
  // Nor is a run that is not true itself: the two sets alone lack the check.
  CHECK_FALSE(pool.is_true("lazy_pool", {side("W", 1, f, 33), side("W", 2, f, 33), side("W", 1, f, 33)}, "g_pool_ready"));
  // Nor a wrong location.
  CHECK_FALSE(pool.is_true("lazy_pool", says_more, "g_pool"));
}

TEST_CASE("a global in a namespace is the header's unqualified name") {
  const Truth counter = program("stripe", "// ctrlsched-truth: class=lost_update fails=exit\n"
                                          "// ctrlsched-truth: cause g_buckets R1@36 W2@36 W1@36\n");
  const std::vector<ReportedSide> sides = {side("R", 1, "stripe.c", 36), side("W", 2, "stripe.c", 36), side("W", 1, "stripe.c", 36)};
  CHECK(counter.is_true("stripe", sides, "(anonymous namespace)::g_buckets+48"));
  CHECK(counter.is_true("stripe", sides, "stats::g_buckets"));
  CHECK_FALSE(counter.is_true("stripe", sides, "(anonymous namespace)::g_other"));
}

TEST_CASE("truth: ConSeq's atomic kinds are reads and writes", "[truth]") {
  // heldout3's replica_limits: ConSeq prints the reload's atomic store and the scaler's atomic
  // load as "AS T1 replica_limits.cpp:20 ... → AL T2 replica_limits.cpp:25 ...".
  const Truth limits = program("replica_limits", "// ctrlsched-truth: class=multi_variable fails=assertion\n"
                                                 "// ctrlsched-truth: cause g_limits W1@20 R2@25\n");
  const auto sides = ctrlsched::eval::conseq_sides(
      "AS T1 replica_limits.c:20 apply → AL T2 replica_limits.c:25 clamp  g_limits (read 1, could read 6)");
  REQUIRE(sides.size() == 2);
  CHECK(sides[0].kind == "W");
  CHECK(sides[1].kind == "R");
  CHECK(limits.is_true("replica_limits", sides, "g_limits"));
  CHECK(ctrlsched::eval::normalized_kind("AX") == "W");
}

TEST_CASE("truth: a Locon finding of several pairs is judged whole", "[truth]") {
  const Truth truth = program("log_queue_cv", "// ctrlsched-truth: class=condvar_check fails=assertion\n"
                                              "// ctrlsched-truth: cause g_queue R1@24 W2@26 R1@25\n");
  const std::string f = "log_queue_cv.cpp";
  const std::vector<ReportedSide> woken = {side("woken", 1, f, 24), side("woken", 2, f, 24)};
  const std::vector<ReportedSide> pop_then_read = {side("W", 1, f, 26), side("R", 2, f, 25)};
  const std::vector<ReportedSide> elsewhere = {side("W", 1, f, 18), side("R", 2, f, 25)};
  CHECK_FALSE(truth.is_true("log_queue_cv", woken, ""));
  CHECK(truth.is_true("log_queue_cv", pop_then_read, ""));
  // The true pair with a partner on the cause's own lines (both waiters woken at the check).
  CHECK(truth.is_true_finding("log_queue_cv", {woken, pop_then_read}));
  CHECK(truth.is_true_finding("log_queue_cv", {pop_then_read, woken}));
  // A true pair does not carry a partner elsewhere, in either position.
  CHECK_FALSE(truth.is_true_finding("log_queue_cv", {pop_then_read, elsewhere}));
  CHECK_FALSE(truth.is_true_finding("log_queue_cv", {elsewhere, pop_then_read}));
  CHECK_FALSE(truth.is_true_finding("log_queue_cv", {woken}));
  CHECK(truth.is_true_finding("log_queue_cv", {pop_then_read}));
  CHECK_FALSE(truth.is_true_finding("log_queue_cv", {}));
  // Strict: every pair true.
  Truth strict = truth;
  strict.set_strict_only(true);
  CHECK_FALSE(strict.is_true_finding("log_queue_cv", {woken, pop_then_read}));
  CHECK(strict.is_true_finding("log_queue_cv", {pop_then_read}));
}

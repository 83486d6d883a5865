// Sync patterns read from a run record and rendered with the operation words, their forcing
// directives, and the lock-order-cycle explanation of a deadlock report.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "ctrlsched/falcon_patterns.h"
#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"
#include "driver_test_support.h"
#include "localize/falcon_summary.h"
#include "localize_trace_builder.h"
#include "localize/lock_cycle.h"
#include "localize/pattern_directives.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::fake_data;
using ctrlsched::driver::testing::fake_symbolize;
using ctrlsched::driver::testing::RecordBuffer;

namespace {

constexpr std::uint64_t kBias = 0x555555554000;  // RecordBuffer's module

constexpr std::uint8_t op(SyncOp o) { return static_cast<std::uint8_t>(o); }

}  // namespace

TEST_CASE("sync patterns are read and rendered with operation words", "[localize_summaries][sync]") {
  RecordBuffer failing, passing;
  for (RecordBuffer* b : {&failing, &passing}) {
    b->record().config.collectors = kCollectFalcon;
    b->falcon().magic = kFalconPatternsMagic;
  }
  // signal by role 1 at offset 0x29 (line 40), wait by role 2 at 0x21 (line 32), on a global cond.
  FalconPatternEntry& e = failing.falcon().patterns[failing.falcon().used++];
  e.kind = static_cast<std::uint8_t>(FalconKind::SyncPair);
  e.sites[0] = 0x29;
  e.sites[1] = 0x21;
  e.ops[0] = op(SyncOp::Signal);
  e.ops[1] = op(SyncOp::Wait);
  e.location = kBias + 0x4040;
  e.threads[0] = 2;
  e.threads[1] = 1;
  e.count = 1;
  const RecordNames names(failing.record(), fake_symbolize, fake_data);
  std::vector<localize::FalconRun> runs = {*read_falcon_run(failing.record(), true, names),
                                           *read_falcon_run(passing.record(), false, names)};
  REQUIRE(runs[0].patterns.size() == 1);
  CHECK(runs[0].patterns[0].id.ops[0] == op(SyncOp::Signal));
  const auto ranking = localize::rank_falcon(runs);
  const auto lines = render_falcon_text(ranking, names);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "  1  1.00  signal1-wait2  g16448  prog.c:40 f40 → prog.c:32 f32 [T1]   failing 1/1 · passing 0/1");
  const auto json = falcon_json(ranking, names);
  CHECK(json["patterns"][0]["kind"] == "signal1-wait2");
  CHECK(json["patterns"][0]["sync"] == true);
  CHECK(json["patterns"][0]["accesses"][0]["access"] == "signal");
  CHECK(json["patterns"][0]["accesses"][1]["access"] == "wait");
  CHECK(json["patterns"][0]["accesses"][1]["role"] == 2);

  // Forced as its operations on one object: signal by role 0, then wait by role 1.
  const ForceDirective d = falcon_directive(ranking.patterns[0].id);
  REQUIRE(d.count == 2);
  CHECK(d.steps[0].access == kForceSync + op(SyncOp::Signal));
  CHECK(d.steps[1].access == kForceSync + op(SyncOp::Wait));
  CHECK(d.steps[0].role == 0);
  CHECK(d.steps[1].role == 1);
  CHECK(d.steps[0].location == d.steps[1].location);
  CHECK(d.steps[1].site == 0x21);
}

TEST_CASE("a lock-order cycle is read from the deadlock report", "[localize_summaries][sync]") {
  DeadlockInfo d{};
  const std::uint64_t lock_a = kBias + 0x4020, lock_b = kBias + 0x4060;
  // main (T0) joins T1; T1 holds lock_a (taken at 0x1b), waits for lock_b at 0x1c, held by T2;
  // T2 holds lock_b (0x27) and waits for lock_a at 0x28, held by T1.
  d.blocked_count = d.reported = 3;
  d.threads[0].thread = 0;
  d.threads[0].wait_kind = static_cast<std::uint32_t>(WaitKind::Join);
  d.threads[0].holder = 1;
  d.threads[1].thread = 1;
  d.threads[1].wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  d.threads[1].object = lock_b;
  d.threads[1].holder = 2;
  d.threads[1].wait_site = 0x1c;
  d.threads[1].held_count = 1;
  d.threads[1].held[0] = HeldLock{lock_a, 0x1b};
  d.threads[2].thread = 2;
  d.threads[2].wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  d.threads[2].object = lock_a;
  d.threads[2].holder = 1;
  d.threads[2].wait_site = 0x28;
  d.threads[2].held_count = 1;
  d.threads[2].held[0] = HeldLock{lock_b, 0x27};
  const auto cycle = find_lock_cycle(d);
  REQUIRE(cycle.has_value());
  REQUIRE(cycle->threads.size() == 2);
  RecordBuffer buffer;
  const RecordNames names(buffer.record(), fake_symbolize, fake_data);
  const auto lines = render_lock_cycle_text(*cycle, names);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "T1 holds g16416 (acquired at prog.c:26 f26), waits for g16480 at prog.c:27 f27");
  CHECK(lines[1] == "T2 holds g16480 (acquired at prog.c:38 f38), waits for g16416 at prog.c:39 f39");
  const auto json = lock_cycle_json(*cycle, names);
  CHECK(json["threads"][0]["holds"] == "g16416");
  CHECK(json["threads"][1]["acquired_at"] == "prog.c:38 f38");
  // Forced as T1 takes lock_a, T2 takes lock_b, T2 asks for lock_a, T1 asks for lock_b.
  const auto directive = lock_cycle_directive(*cycle, 100);
  REQUIRE(directive.has_value());
  REQUIRE(directive->count == 4);
  CHECK(directive->kind == static_cast<std::uint32_t>(ForceKind::Order));
  CHECK(directive->hold_limit == 100);
  const std::uint64_t sites[4] = {0x1b, 0x27, 0x28, 0x1c};
  const std::uint8_t roles[4] = {0, 1, 1, 0};
  const std::uint16_t locations[4] = {0, 1, 0, 1};
  for (int i = 0; i < 4; ++i) {
    INFO("step " << i);
    CHECK(directive->steps[i].site == sites[i]);
    CHECK(directive->steps[i].role == roles[i]);
    CHECK(directive->steps[i].location == locations[i]);
    CHECK(directive->steps[i].access == kForceSync + static_cast<std::uint8_t>(SyncOp::Lock));
  }
  CHECK(valid_directive(*directive));
  // Three threads: each takes its lock, then T3 asks for T1's, T2 for T3's, T1 for T2's.
  LockCycle three;
  for (std::uint32_t i = 0; i < 3; ++i) {
    LockCycleThread t;
    t.thread = i + 1;
    t.holds = 0x100 + i;
    t.holds_site = 0x10 + i;
    t.waits_for = 0x100 + (i + 1) % 3;
    t.wait_site = 0x20 + i;
    three.threads.push_back(t);
  }
  const auto ring = lock_cycle_directive(three, 100);
  REQUIRE(ring.has_value());
  REQUIRE(ring->count == 6);
  const std::uint64_t ring_sites[6] = {0x10, 0x11, 0x12, 0x22, 0x21, 0x20};
  const std::uint8_t ring_roles[6] = {0, 1, 2, 2, 1, 0};
  const std::uint16_t ring_locations[6] = {0, 1, 2, 0, 2, 1};
  for (int i = 0; i < 6; ++i) {
    INFO("step " << i);
    CHECK(ring->steps[i].site == ring_sites[i]);
    CHECK(ring->steps[i].role == ring_roles[i]);
    CHECK(ring->steps[i].location == ring_locations[i]);
  }
  CHECK(valid_directive(*ring));
  // One lock's half of the ring (T2 takes its lock at 0x11, T1 asks for it at 0x20) cannot
  // deadlock alone: its refutation becomes inconclusive. A half of a two-thread cycle, an
  // unrelated lock order and a three-step pattern are left alone.
  const auto lock_op = static_cast<std::uint8_t>(SyncOp::Lock);
  const ForceDirective half = order_directive({force_sync_step(0x11, lock_op, 0), force_sync_step(0x20, lock_op, 1)});
  CHECK(is_half_of_longer_cycle(half, three));
  CHECK_FALSE(is_half_of_longer_cycle(half, *cycle));
  CHECK_FALSE(is_half_of_longer_cycle(
      order_directive({force_sync_step(0x11, lock_op, 0), force_sync_step(0x21, lock_op, 1)}), three));
  CHECK_FALSE(is_half_of_longer_cycle(
      order_directive({force_sync_step(0x11, lock_op, 0), force_sync_step(0x20, lock_op, 1),
                       force_sync_step(0x20, static_cast<std::uint8_t>(SyncOp::Unlock), 0)}),
      three));
  ConfirmationResult refuted;
  refuted.verdict = Verdict::Refuted;
  refuted.refuted = true;
  refuted.completed = 17;
  refuted.failed = 2;
  qualify_refutation_by_cycle(refuted, three);
  CHECK(refuted.verdict == Verdict::Inconclusive);
  CHECK_FALSE(refuted.refuted);
  CHECK(refuted.reason.find("half of the lock-order cycle of 3 threads") != std::string::npos);
  ConfirmationResult confirmed;
  confirmed.verdict = Verdict::Confirmed;
  qualify_refutation_by_cycle(confirmed, three);
  CHECK(confirmed.verdict == Verdict::Confirmed);
  // Ordered as a traced deadlock took them: T2 took its lock first, then T1, then T3; the
  // requests came from T1, T3, T2 (each blocked). An earlier round's acquisition by T1 (released
  // since) is not the one it holds.
  localize::testing::TraceBuilder b;
  b.lock(1, 0x100, 0x10);
  b.unlock(1, 0x100, 0x30);
  b.lock(2, 0x101, 0x11);
  b.lock(1, 0x100, 0x10);
  b.lock(3, 0x102, 0x12);
  b.blocked_lock(1, 0x101, 0x20);
  b.blocked_lock(3, 0x100, 0x22);
  b.blocked_lock(2, 0x102, 0x21);
  localize::Trace run = b.trace();
  const ForceDirective as_run = order_as_in_trace(*ring, three, run);
  const std::uint64_t run_sites[6] = {0x11, 0x10, 0x12, 0x20, 0x22, 0x21};
  const std::uint8_t run_roles[6] = {1, 0, 2, 0, 2, 1};
  const std::uint16_t run_locations[6] = {1, 0, 2, 1, 0, 2};
  for (int i = 0; i < 6; ++i) {
    INFO("step " << i);
    CHECK(as_run.steps[i].site == run_sites[i]);
    CHECK(as_run.steps[i].role == run_roles[i]);
    CHECK(as_run.steps[i].location == run_locations[i]);
  }
  CHECK(as_run.role_threads == ring->role_threads);
  // A trace without T3's request (another run deadlocked): the fixed order stays.
  run.events.pop_back();
  run.events.erase(run.events.begin() + 6);
  const ForceDirective fixed = order_as_in_trace(*ring, three, run);
  for (int i = 0; i < 6; ++i) CHECK(fixed.steps[i].site == ring->steps[i].site);
  // Five threads have more roles than a directive names; an unknown site cannot be forced.
  LockCycle five = three;
  five.threads.push_back(three.threads[0]);
  five.threads.push_back(three.threads[1]);
  CHECK_FALSE(lock_cycle_directive(five, 100).has_value());
  LockCycle unknown = *cycle;
  unknown.threads[1].holds_site = 0;
  CHECK_FALSE(lock_cycle_directive(unknown, 100).has_value());

  // A lost wakeup (a condition wait, nobody holds anything) is no cycle.
  DeadlockInfo lost{};
  lost.blocked_count = lost.reported = 1;
  lost.threads[0].thread = 1;
  lost.threads[0].wait_kind = static_cast<std::uint32_t>(WaitKind::Cond);
  lost.threads[0].holder = -1;
  CHECK_FALSE(find_lock_cycle(lost).has_value());
}

// Happens-before from hand-built traces: each synchronization rule of trace_format.h, shown
// ordering what it should and nothing more (the "without" cases must come out concurrent).
#include <catch2/catch.hpp>

#include "ctrlsched/localize/happens_before.h"
#include "localize_trace_builder.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;
using ctrlsched::localize::testing::TraceBuilder;

namespace {
constexpr std::uint64_t kX = 0x1000;
constexpr std::uint64_t kY = 0x1008;
constexpr std::uint64_t kMutex = 0x2000;
constexpr std::uint64_t kCond = 0x3000;
constexpr std::uint64_t kBarrier = 0x4000;
constexpr std::uint64_t kRw = 0x5000;
}  // namespace

TEST_CASE("create orders the parent's earlier events before the child", "[localize][hb]") {
  TraceBuilder b;
  auto w = b.write(0, kX);
  b.create(0, 1);
  auto after_create = b.write(0, kY);
  b.start(1);
  auto r = b.read(1, kX);
  auto r_y = b.read(1, kY);
  HappensBefore hb(b.trace());
  CHECK(hb.ordered(w, r));
  CHECK_FALSE(hb.ordered(r, w));
  CHECK_FALSE(hb.concurrent(w, r));
  // What the parent does after the create is not ordered with the child.
  CHECK(hb.concurrent(after_create, r_y));
}

TEST_CASE("the child needs its ThreadStart to acquire the parent's clock", "[localize][hb]") {
  TraceBuilder b;
  auto w = b.write(0, kX);
  b.create(0, 1);
  auto r = b.read(1, kX);  // no ThreadStart: nothing acquired
  HappensBefore hb(b.trace());
  CHECK(hb.concurrent(w, r));
}

TEST_CASE("join orders the child's events before the joiner's later ones", "[localize][hb]") {
  TraceBuilder b;
  b.spawn(2);
  auto w1 = b.write(1, kX);
  b.exit(1);
  auto w2 = b.write(2, kX);
  b.exit(2);
  auto before_join = b.read(0, kX);
  b.join(0, 1);
  auto r = b.read(0, kX);
  HappensBefore hb(b.trace());
  CHECK(hb.ordered(w1, r));
  CHECK(hb.concurrent(w1, before_join));
  // Only T1 was joined: T2's write stays concurrent with the parent's read.
  CHECK(hb.concurrent(w2, r));
  // Two siblings' writes are concurrent.
  CHECK(hb.concurrent(w1, w2));
  CHECK(hb.concurrent(w2, w1));
}

TEST_CASE("a mutex hands its clock from unlock to the next lock", "[localize][hb]") {
  SECTION("with the lock: ordered") {
    TraceBuilder b;
    b.spawn(2);
    b.lock(1, kMutex);
    auto w = b.write(1, kX);
    b.unlock(1, kMutex);
    auto after_unlock = b.write(1, kY);
    b.lock(2, kMutex);
    auto r = b.read(2, kX);
    auto r_y = b.read(2, kY);
    b.unlock(2, kMutex);
    HappensBefore hb(b.trace());
    CHECK(hb.ordered(w, r));
    // The unlocker's own component ticked: what it does after the unlock is not ordered.
    CHECK(hb.concurrent(after_unlock, r_y));
  }
  SECTION("without the lock: concurrent") {
    TraceBuilder b;
    b.spawn(2);
    b.lock(1, kMutex);
    auto w = b.write(1, kX);
    b.unlock(1, kMutex);
    auto r = b.read(2, kX);
    HappensBefore hb(b.trace());
    CHECK(hb.concurrent(w, r));
  }
  SECTION("a different mutex does not order") {
    TraceBuilder b;
    b.spawn(2);
    b.lock(1, kMutex);
    auto w = b.write(1, kX);
    b.unlock(1, kMutex);
    b.lock(2, kMutex + 8);
    auto r = b.read(2, kX);
    HappensBefore hb(b.trace());
    CHECK(hb.concurrent(w, r));
  }
  SECTION("the same address as another kind of object does not order") {
    TraceBuilder b;
    b.spawn(2);
    auto w = b.write(1, kX);
    b.release(1, kMutex, WaitKind::Semaphore);
    b.lock(2, kMutex);
    auto r = b.read(2, kX);
    HappensBefore hb(b.trace());
    CHECK(hb.concurrent(w, r));
  }
}

TEST_CASE("a condition variable signal orders before the woken waiter", "[localize][hb]") {
  TraceBuilder b;
  b.spawn(2);
  auto early_read = b.read(2, kX);
  b.release(2, kMutex, WaitKind::Mutex);  // pthread_cond_wait gives up the mutex
  auto w = b.write(1, kX);
  b.release(1, kCond, WaitKind::Cond);    // pthread_cond_signal
  b.acquire(2, kCond, WaitKind::Cond);    // the waiter wakes
  auto r = b.read(2, kX);
  HappensBefore hb(b.trace());
  CHECK(hb.ordered(w, r));
  CHECK(hb.concurrent(early_read, w));
}

TEST_CASE("barrier rounds order what precedes them and nothing after", "[localize][hb]") {
  TraceBuilder b;
  b.spawn(2);
  auto w1_round0 = b.write(1, kX);
  auto w2_round0 = b.write(2, kY);
  // Round 0: both arrive (release), then both leave (acquire).
  b.release(1, kBarrier, WaitKind::Barrier, 0);
  b.release(2, kBarrier, WaitKind::Barrier, 0);
  b.acquire(2, kBarrier, WaitKind::Barrier, 0);
  auto w2_round1 = b.write(2, kX);
  b.acquire(1, kBarrier, WaitKind::Barrier, 0);
  auto r1_round1 = b.read(1, kY);
  auto r1_round1_x = b.read(1, kX);
  auto r2_round1 = b.read(2, kX);
  // Round 1: T2 arrives early; T1 gets there after its reads.
  b.release(2, kBarrier, WaitKind::Barrier, 1);
  b.release(1, kBarrier, WaitKind::Barrier, 1);
  b.acquire(1, kBarrier, WaitKind::Barrier, 1);
  b.acquire(2, kBarrier, WaitKind::Barrier, 1);
  auto r2_round2 = b.read(2, kY);
  auto r1_round2 = b.read(1, kX);

  HappensBefore hb(b.trace());
  // Round-0 writes of every thread are ordered before the round-1 reads of every thread.
  CHECK(hb.ordered(w2_round0, r1_round1));
  CHECK(hb.ordered(w1_round0, r2_round1));
  CHECK(hb.ordered(w1_round0, r1_round1_x));
  // Within round 1, one thread's write is not ordered before another's read.
  CHECK(hb.concurrent(w2_round1, r1_round1_x));
  // Round 1's barrier orders round-1 events before round 2.
  CHECK(hb.ordered(w2_round1, r1_round2));
  CHECK(hb.ordered(r1_round1, r2_round2));
}

TEST_CASE("a barrier's later round does not reach back into an earlier one", "[localize][hb]") {
  // T1 is already in round 1 (released its round-1 arrival) while T2 only now leaves round 0:
  // T2 must acquire round 0's clock, not T1's round-1 arrival.
  TraceBuilder b;
  b.spawn(2);
  b.release(1, kBarrier, WaitKind::Barrier, 0);
  b.release(2, kBarrier, WaitKind::Barrier, 0);
  b.acquire(1, kBarrier, WaitKind::Barrier, 0);
  auto w1_round1 = b.write(1, kX);
  b.release(1, kBarrier, WaitKind::Barrier, 1);
  b.acquire(2, kBarrier, WaitKind::Barrier, 0);
  auto r2_round1 = b.read(2, kX);
  HappensBefore hb(b.trace());
  CHECK(hb.concurrent(w1_round1, r2_round1));
}

TEST_CASE("atomics: a store releases to later loads of the same address", "[localize][hb]") {
  TraceBuilder b;
  b.spawn(2);
  auto w = b.write(1, kX);
  b.atomic_store(1, kY);
  auto after_store = b.write(1, kX + 64);
  b.atomic_load(2, kY);
  auto r = b.read(2, kX);
  auto r_after = b.read(2, kX + 64);
  auto other_load = b.atomic_load(2, kY + 8);
  HappensBefore hb(b.trace());
  CHECK(hb.ordered(w, r));
  CHECK(hb.concurrent(after_store, r_after));
  CHECK(hb.ordered(w, other_load));  // T2 already acquired through kY
  SECTION("a load of another address does not order") {
    TraceBuilder c;
    c.spawn(2);
    auto w2 = c.write(1, kX);
    c.atomic_store(1, kY);
    c.atomic_load(2, kY + 8);
    auto r2 = c.read(2, kX);
    CHECK(HappensBefore(c.trace()).concurrent(w2, r2));
  }
  SECTION("read-modify-writes chain") {
    TraceBuilder c;
    c.spawn(3);
    auto w1 = c.write(1, kX);
    c.atomic_rmw(1, kY);
    c.atomic_rmw(2, kY);
    c.atomic_rmw(3, kY);
    auto r3 = c.read(3, kX);
    CHECK(HappensBefore(c.trace()).ordered(w1, r3));
  }
  SECTION("a fence orders nothing") {
    TraceBuilder c;
    c.spawn(2);
    auto w2 = c.write(1, kX);
    c.atomic_rmw(1, 0);
    c.atomic_rmw(2, 0);
    auto r2 = c.read(2, kX);
    CHECK(HappensBefore(c.trace()).concurrent(w2, r2));
  }
}

TEST_CASE("rwlock: writers order readers, readers do not order each other", "[localize][hb]") {
  // As the shim emits it: every unlock carries aux = RwlockWrite.
  TraceBuilder b;
  b.spawn(3);
  b.acquire(1, kRw, WaitKind::RwlockWrite);
  auto w = b.write(1, kX);
  b.release(1, kRw, WaitKind::RwlockWrite);
  b.acquire(2, kRw, WaitKind::RwlockRead);
  auto r2 = b.read(2, kX);
  auto w2_outside = b.write(2, kY);  // not protected, just before a read unlock
  b.release(2, kRw, WaitKind::RwlockWrite);
  b.acquire(3, kRw, WaitKind::RwlockRead);
  auto r3 = b.read(3, kY);
  b.release(3, kRw, WaitKind::RwlockWrite);
  b.acquire(1, kRw, WaitKind::RwlockWrite);
  auto r1 = b.read(1, kY);
  HappensBefore hb(b.trace());
  CHECK(hb.ordered(w, r2));           // write unlock -> read lock
  CHECK(hb.concurrent(w2_outside, r3));  // read unlock -> read lock: no order
  CHECK(hb.ordered(w2_outside, r1));  // read unlock -> write lock
  CHECK(hb.ordered(r3, r1));
}

TEST_CASE("user annotations and atomics on an address share one clock", "[localize][hb]") {
  TraceBuilder b;
  b.spawn(2);
  auto w = b.write(1, kX);
  b.release(1, kY, WaitKind::None);  // __tsan_release(&y)
  b.atomic_load(2, kY);
  auto r = b.read(2, kX);
  CHECK(HappensBefore(b.trace()).ordered(w, r));
}

TEST_CASE("happens-before is transitive across objects and threads", "[localize][hb]") {
  TraceBuilder b;
  b.spawn(3);
  auto w = b.write(1, kX);
  b.unlock(1, kMutex);
  b.lock(2, kMutex);
  b.atomic_store(2, kY);
  b.atomic_load(3, kY);
  auto r = b.read(3, kX);
  HappensBefore hb(b.trace());
  CHECK(hb.ordered(w, r));
}

TEST_CASE("vector clocks: values, sharing and edge cases", "[localize][hb]") {
  TraceBuilder b;
  auto first = b.write(0, kX);
  b.create(0, 1);
  auto after = b.write(0, kX);
  b.start(1);
  auto child = b.read(1, kX);
  auto child2 = b.read(1, kY);
  b.event(EventKind::Read, kMaxTraceThreads + 5, kX);  // a corrupt thread id
  HappensBefore hb(b.trace());

  CHECK(std::vector<std::uint32_t>(hb.clock(first).begin(), hb.clock(first).end()) ==
        std::vector<std::uint32_t>{1});
  CHECK(std::vector<std::uint32_t>(hb.clock(after).begin(), hb.clock(after).end()) ==
        std::vector<std::uint32_t>{2});
  CHECK(std::vector<std::uint32_t>(hb.clock(child).begin(), hb.clock(child).end()) ==
        std::vector<std::uint32_t>{1, 1});
  CHECK(hb.thread_count() == 2);
  // The child's two reads share one stored clock; so do T0's first write and the create.
  CHECK(hb.clock(child).data() == hb.clock(child2).data());
  CHECK(hb.stored_clocks() == 3);

  CHECK_FALSE(hb.ordered(first, first));
  CHECK_FALSE(hb.concurrent(first, first));
  CHECK(hb.ordered(first, after));  // program order
  CHECK_FALSE(hb.ordered(after, first));
  CHECK_FALSE(hb.ordered(first, 99));
  CHECK_FALSE(hb.concurrent(first, 99));
  CHECK(hb.clock(99).empty());
  CHECK(hb.clock(6).empty());
  CHECK_FALSE(hb.ordered(first, 6));
  CHECK_FALSE(hb.concurrent(first, 6));
}

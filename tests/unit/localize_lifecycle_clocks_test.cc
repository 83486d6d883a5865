// The creation/join clocks of the Falcon collector (ctrlsched/lifecycle_clocks.h).
#include <catch2/catch.hpp>

#include <memory>

#include "ctrlsched/lifecycle_clocks.h"

using ctrlsched::LifecycleClocks;

namespace {

// 256 KiB: on the heap, not on the test's stack.
std::unique_ptr<LifecycleClocks> fresh() {
  auto clocks = std::make_unique<LifecycleClocks>();
  clocks->reset();
  return clocks;
}

}  // namespace

TEST_CASE("lifecycle clocks: main's accesses before a create come before the child's", "[lifecycle]") {
  auto c = fresh();
  const auto main_before = c->stamp(0);
  c->on_create(0, 1);
  const auto main_after = c->stamp(0);
  const auto child = c->stamp(1);
  CHECK(c->ordered(0, main_before, 1, child));
  // After the create, main and the child race: neither order is fixed.
  CHECK_FALSE(c->ordered(0, main_after, 1, child));
  CHECK_FALSE(c->ordered(1, child, 0, main_after));
}

TEST_CASE("lifecycle clocks: a thread's accesses come before its joiner's after the join, not before it",
          "[lifecycle]") {
  auto c = fresh();
  c->on_create(0, 1);
  const auto worker = c->stamp(1);
  const auto main_before_join = c->stamp(0);
  c->on_exit(1);
  c->on_join(0, 1);
  const auto main_after_join = c->stamp(0);
  CHECK_FALSE(c->ordered(1, worker, 0, main_before_join));  // a stamp keeps the knowledge of its time
  CHECK(c->ordered(1, worker, 0, main_after_join));
}

TEST_CASE("lifecycle clocks: creation is transitive, siblings race", "[lifecycle]") {
  auto c = fresh();
  const auto main_first = c->stamp(0);
  c->on_create(0, 1);
  c->on_create(0, 2);
  const auto child_before = c->stamp(1);
  c->on_create(1, 3);
  const auto grandchild = c->stamp(3);
  CHECK(c->ordered(0, main_first, 3, grandchild));
  CHECK(c->ordered(1, child_before, 3, grandchild));
  CHECK_FALSE(c->ordered(1, c->stamp(1), 2, c->stamp(2)));
  CHECK_FALSE(c->ordered(2, c->stamp(2), 1, c->stamp(1)));
  // A join of a thread that has not exited yet orders nothing.
  c->on_join(0, 2);
  CHECK_FALSE(c->ordered(2, c->stamp(2), 0, c->stamp(0)));
}

TEST_CASE("lifecycle clocks: what they cannot track is never ordered", "[lifecycle]") {
  auto c = fresh();
  // A thread beyond the tracked ones, and one never seen created.
  c->on_create(0, LifecycleClocks::kThreads);
  CHECK(c->stamp(LifecycleClocks::kThreads).version == LifecycleClocks::kUnknown);
  CHECK_FALSE(c->ordered(0, c->stamp(0), 5, c->stamp(5)));
  // A joiner out of versions: from then on unknown.
  for (std::uint32_t t = 1; t < LifecycleClocks::kVersions; ++t) {
    c->on_create(0, t);
    c->on_exit(t);
    c->on_join(0, t);
  }
  CHECK(c->stamp(0).version == LifecycleClocks::kVersions - 1);  // its start and 15 joins
  c->on_create(0, LifecycleClocks::kVersions);
  const auto last = c->stamp(LifecycleClocks::kVersions);
  c->on_exit(LifecycleClocks::kVersions);
  c->on_join(0, LifecycleClocks::kVersions);
  CHECK(c->stamp(0).version == LifecycleClocks::kUnknown);
  CHECK_FALSE(c->ordered(LifecycleClocks::kVersions, last, 0, c->stamp(0)));
  // reset() starts the next run afresh.
  c->reset();
  const auto main_first = c->stamp(0);
  c->on_create(0, 1);
  CHECK(c->ordered(0, main_first, 1, c->stamp(1)));
}

// Call stacks rebuilt from FuncEntry/FuncExit, per thread, at every event.
#include <catch2/catch.hpp>

#include "ctrlsched/localize/call_stacks.h"
#include "localize_trace_builder.h"

using namespace ctrlsched::localize;
using ctrlsched::localize::testing::TraceBuilder;
using Sites = std::vector<std::uint64_t>;

TEST_CASE("stacks follow entries and exits, innermost first", "[localize][stacks]") {
  TraceBuilder b;
  auto before = b.write(0, 0x10);
  auto enter_main = b.enter(0, 0xa0);   // main called from 0xa0
  auto in_main = b.write(0, 0x10);
  auto enter_work = b.enter(0, 0xb0);   // work called from main at 0xb0
  auto in_work = b.read(0, 0x10);
  auto leave_work = b.leave(0);
  auto back_in_main = b.read(0, 0x10);
  b.leave(0);
  auto after = b.read(0, 0x10);
  CallStacks stacks(b.trace());

  CHECK(stacks.stack_at(before).empty());
  CHECK(stacks.stack_at(enter_main) == Sites{0xa0});  // includes the frame it pushes
  CHECK(stacks.stack_at(in_main) == Sites{0xa0});
  CHECK(stacks.stack_at(enter_work) == Sites{0xb0, 0xa0});
  CHECK(stacks.stack_at(in_work) == Sites{0xb0, 0xa0});
  CHECK(stacks.depth_at(in_work) == 2);
  CHECK(stacks.stack_at(leave_work) == Sites{0xb0, 0xa0});  // still inside work
  CHECK(stacks.stack_at(back_in_main) == Sites{0xa0});
  CHECK(stacks.stack_at(after).empty());
  CHECK(stacks.stack_at(1000).empty());
  CHECK(stacks.depth_at(1000) == 0);
}

TEST_CASE("each thread has its own stack", "[localize][stacks]") {
  TraceBuilder b;
  b.spawn(2);
  b.enter(1, 0x100);
  b.enter(2, 0x200);
  b.enter(1, 0x110);
  auto t2 = b.write(2, 0x10);
  auto t1 = b.write(1, 0x10);
  b.leave(2);
  auto t2_after = b.write(2, 0x10);
  auto t1_after = b.write(1, 0x10);
  CallStacks stacks(b.trace());
  CHECK(stacks.stack_at(t2) == Sites{0x200});
  CHECK(stacks.stack_at(t1) == Sites{0x110, 0x100});
  CHECK(stacks.stack_at(t2_after).empty());
  CHECK(stacks.stack_at(t1_after) == Sites{0x110, 0x100});
}

TEST_CASE("an exit on an empty stack is ignored", "[localize][stacks]") {
  TraceBuilder b;
  b.leave(0);  // a function entered before tracing started returns
  b.enter(0, 0xa0);
  auto in = b.write(0, 0x10);
  CHECK(CallStacks(b.trace()).stack_at(in) == Sites{0xa0});
}

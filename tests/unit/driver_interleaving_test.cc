// The readable interleaving of a shrunk run (interleaving.h), on a trace built by hand.
#include <catch2/catch.hpp>

#include <map>

#include "driver_test_support.h"
#include "report/interleaving.h"

using namespace ctrlsched;
using ctrlsched::driver::testing::event;
using ctrlsched::driver::testing::TableSymbolizer;

namespace {

const TableSymbolizer::Table kInterleavingSites = {
    {0x100, {"main", "/src/t.c", 10}},  {0x110, {"main", "/src/t.c", 11}},
    {0x200, {"worker", "/src/t.c", 20}}, {0x210, {"worker", "/src/t.c", 22}},
    {0x300, {"helper", "/src/u.c", 5}},
};

localize::Trace interleaving_trace() {
  localize::Trace trace;
  trace.modules.push_back({"/bin/t", 0, 0x10000});
  trace.events = {
      event(EventKind::Acquire, 0, 0x101),     event(EventKind::Release, 0, 0x111),
      event(EventKind::ThreadCreate, 0, 0x111, 1), event(EventKind::Switch, 0, 0, 1),
      event(EventKind::ThreadStart, 1, 0),     event(EventKind::Write, 1, 0x201),
      event(EventKind::FuncEntry, 1, 0x211),   event(EventKind::Read, 1, 0x301),
      event(EventKind::Switch, 1, 0, 2),       event(EventKind::Write, 2, 0x211),
      event(EventKind::Read, 2, 0x201),        event(EventKind::Write, 2, 0x211),
      event(EventKind::ThreadExit, 2, 0),
      event(EventKind::Switch, 2, 0, 1),       event(EventKind::Write, 1, 0x211),
      event(EventKind::Write, 1, 0x999),       event(EventKind::Switch, 1, 0, 0),
  };
  return trace;
}

}  // namespace

TEST_CASE("the interleaving lists each thread's lines between switches and marks preemptions", "[interleaving]") {
  const std::vector<SwitchPoint> log = {
      make_switch_point(SwitchKind::Free, 0, 3, 1),      // T0 blocks: T1
      make_switch_point(SwitchKind::Wake, 1, 1, 3),      // not a switch
      make_switch_point(SwitchKind::Preempt, 1, 3, 2),
      make_switch_point(SwitchKind::Free, 2, 5, 1),      // T2 exits
      make_switch_point(SwitchKind::Free, 1, 6, 1),      // a yield that kept T1: not a switch
      make_switch_point(SwitchKind::Free, 1, 7, 0),
  };
  TableSymbolizer symbolizer(kInterleavingSites);
  const std::vector<std::string> expected = {
      "T0 runs t.c:10-11 (main)",
      "T1 runs t.c:20 (worker), u.c:5 (helper)",
      "-- preemption 1 of 1: T1 -> T2 after T1's read at u.c:5 (helper)",
      "T2 runs t.c:22 (worker), t.c:20-22 (worker)",
      "T1 runs t.c:22 (worker), t+0x999",
  };
  CHECK(driver::render_interleaving(interleaving_trace(), log, symbolizer) == expected);
}

TEST_CASE("a switch log that does not line up with the trace marks nothing from there on", "[interleaving]") {
  const std::vector<SwitchPoint> log = {
      make_switch_point(SwitchKind::Free, 0, 3, 2),  // the trace switched to T1
      make_switch_point(SwitchKind::Preempt, 1, 3, 2),
  };
  TableSymbolizer symbolizer(kInterleavingSites);
  const std::vector<std::string> lines = driver::render_interleaving(interleaving_trace(), log, symbolizer);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "T1 runs t.c:20 (worker), u.c:5 (helper)");
  CHECK(lines[2] == "T2 runs t.c:22 (worker), t.c:20-22 (worker)");
}

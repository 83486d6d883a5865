// The trace dump, as golden text: with the raw symbolizer (what a binary without debug info
// gives) and with a symbolizer that knows names, under each option.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>

#include "ctrlsched/localize/dump.h"
#include "localize_trace_builder.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;
using ctrlsched::localize::testing::TraceBuilder;

namespace {

constexpr std::uint64_t kBias = 0x555555554000;
constexpr std::uint64_t kCounter = kBias + 0x40a0;
constexpr std::uint64_t kLocal = kBias + 0x40b0;
constexpr std::uint64_t kMutex = kBias + 0x40c0;
std::uint64_t site(std::uint64_t offset) { return make_site(0, offset); }

// lost_update.c, roughly: main creates a worker that increments a counter and touches a
// variable of its own under a mutex, joins it, reads the counter.
Trace lost_update() {
  TraceBuilder b;
  b.trace().handle = "17:random";
  b.trace().schedule_hash = 0x9f3a2b1c0d4e5f67;
  b.trace().modules = {{"app", kBias, 0x5000}};
  b.enter(0, site(0x1000));            //  0 main called
  b.create(0, 1, site(0x1204));        //  1
  b.switch_to(0, 1);                   //  2
  b.start(1);                          //  3
  b.enter(1, site(0x1010));            //  4 start called (from "libc")
  b.enter(1, site(0x1320));            //  5 work called from start
  b.read(1, kCounter, site(0x1150), 4, 41);   //  6 reads 41
  b.write(1, kCounter, site(0x1160), 4, 41);  //  7 overwrites 41 (with 42)
  b.lock(1, kMutex, site(0x1170));     //  8
  b.write(1, kLocal, site(0x1180), 4, 0xfffffff6);  //  9 only T1 touches it; overwrites -10
  b.unlock(1, kMutex, site(0x1190));   // 10
  b.leave(1);                          // 11
  b.leave(1);                          // 12
  b.exit(1);                           // 13
  b.switch_to(1, 0);                   // 14
  b.join(0, 1, site(0x1210));          // 15
  b.read(0, kCounter, site(0x1220), 4, 42);  // 16 reads 42
  b.acquire(0, 0x7fffffffe000, WaitKind::Barrier, 3, make_site(5, 0x10));  // 17 unknown module
  b.atomic_rmw(0, 0, site(0x1230));    // 18 a fence
  return std::move(b.trace());
}

std::string dump(const Trace& trace, Symbolizer& symbolizer, const DumpOptions& options = {}) {
  std::ostringstream out;
  render_dump(trace, symbolizer, out, options);
  return out.str();
}

// Knows the functions of lost_update.c and the global `counter`.
class NamesSymbolizer final : public Symbolizer {
 public:
  SymbolizedSite symbolize(const std::string& module, std::uint64_t offset) override {
    asked.push_back(offset);
    if (module != "app") return {};
    if (offset < 0x1100) return {"__libc_start_call_main", "", 0};
    if (offset < 0x1200) return {"work", "/src/examples/lost_update.c", 14};
    if (offset < 0x1300) return {"main", "/src/examples/lost_update.c", 30};
    return {"start", "/src/examples/lost_update.c", 20};
  }
  std::string data_symbol(const std::string& module, std::uint64_t offset) override {
    return module == "app" && offset == 0x40a0 ? "counter" : "";
  }
  std::vector<std::uint64_t> asked;
};

}  // namespace

TEST_CASE("dump with the raw symbolizer", "[localize][dump]") {
  RawSymbolizer raw;
  CHECK(dump(lost_update(), raw) ==
        "trace 17:random  schedule 0x9f3a2b1c0d4e5f67  events 19\n"
        "module 0  app  bias 0x555555554000  size 0x5000\n"
        "showing 14 of 19 events (func entry/exit hidden)\n"
        "#1  T0  create T1  app+0x1203  [stack: app+0x1203 ← app+0xfff]\n"
        "#2  T0  → T1  (switch)\n"
        "#3  T1  start\n"
        "#6  T1  R4  0x5555555580a0  = 41  app+0x114f  [stack: app+0x114f ← app+0x131f ← app+0x100f]\n"
        "#7  T1  W4  0x5555555580a0  (was 41)  app+0x115f  [stack: app+0x115f ← app+0x131f ← app+0x100f]\n"
        "#8  T1  acquire mutex 0x5555555580c0  app+0x116f  [stack: app+0x116f ← app+0x131f ← app+0x100f]\n"
        "#9  T1  W4  0x5555555580b0  (was -10)  app+0x117f  [stack: app+0x117f ← app+0x131f ← app+0x100f]\n"
        "#10  T1  release mutex 0x5555555580c0  app+0x118f  [stack: app+0x118f ← app+0x131f ← app+0x100f]\n"
        "#13  T1  exit\n"
        "#14  T1  → T0  (switch)\n"
        "#15  T0  join T1  app+0x120f  [stack: app+0x120f ← app+0xfff]\n"
        "#16  T0  R4  0x5555555580a0  = 42  app+0x121f  [stack: app+0x121f ← app+0xfff]\n"
        "#17  T0  acquire barrier 0x7fffffffe000 round 3  site 0x5000000000010  [stack: site 0x5000000000010 ← app+0xfff]\n"
        "#18  T0  fence  app+0x122f  [stack: app+0x122f ← app+0xfff]\n");
}

TEST_CASE("dump with names, only shared locations, func events and clocks", "[localize][dump]") {
  NamesSymbolizer names;
  DumpOptions options;
  options.only_shared = true;
  options.func_events = true;
  options.vector_clocks = true;
  options.stacks = false;
  CHECK(dump(lost_update(), names, options) ==
        "trace 17:random  schedule 0x9f3a2b1c0d4e5f67  events 19\n"
        "module 0  app  bias 0x555555554000  size 0x5000\n"
        "showing 18 of 19 events (only shared locations: 1 address)\n"
        "#0  T0  call from __libc_start_call_main  VC[1]\n"
        "#1  T0  create T1  lost_update.c:30 main  VC[1]\n"
        "#2  T0  → T1  (switch)  VC[2]\n"
        "#3  T1  start  VC[1,1]\n"
        "#4  T1  call from __libc_start_call_main  VC[1,1]\n"
        "#5  T1  call from lost_update.c:20 start  VC[1,1]\n"
        "#6  T1  R4  0x5555555580a0  counter  = 41  lost_update.c:14 work  VC[1,1]\n"
        "#7  T1  W4  0x5555555580a0  counter  (was 41)  lost_update.c:14 work  VC[1,1]\n"
        "#8  T1  acquire mutex 0x5555555580c0  lost_update.c:14 work  VC[1,1]\n"
        "#10  T1  release mutex 0x5555555580c0  lost_update.c:14 work  VC[1,1]\n"
        "#11  T1  return  VC[1,2]\n"
        "#12  T1  return  VC[1,2]\n"
        "#13  T1  exit  VC[1,2]\n"
        "#14  T1  → T0  (switch)  VC[1,3]\n"
        "#15  T0  join T1  lost_update.c:30 main  VC[2,2]\n"
        "#16  T0  R4  0x5555555580a0  counter  = 42  lost_update.c:30 main  VC[2,2]\n"
        "#17  T0  acquire barrier 0x7fffffffe000 round 3  site 0x5000000000010  VC[2,2]\n"
        "#18  T0  fence  lost_update.c:30 main  VC[2,2]\n");
}

TEST_CASE("stacks name the event's function, then each caller", "[localize][dump]") {
  NamesSymbolizer names;
  std::string text = dump(lost_update(), names);
  CHECK(text.find("#7  T1  W4  0x5555555580a0  counter  (was 41)  lost_update.c:14 work  "
                  "[stack: work ← start ← __libc_start_call_main]\n") != std::string::npos);
}

TEST_CASE("the dump asks the symbolizer once per site, for the pc before the return address",
          "[localize][dump]") {
  NamesSymbolizer names;
  Trace trace = lost_update();
  trace.events.push_back(trace.events[16]);  // a second read at the same site
  dump(trace, names);
  std::map<std::uint64_t, int> times;
  for (std::uint64_t offset : names.asked) ++times[offset];
  for (auto [offset, n] : times) CHECK(n == 1);
  CHECK(times.count(0x121f) == 1);
  CHECK(times.count(0x1220) == 0);
}

TEST_CASE("the dump is deterministic and marks truncated traces", "[localize][dump]") {
  RawSymbolizer raw;
  Trace trace = lost_update();
  trace.truncated = true;
  trace.handle.clear();
  std::string first = dump(trace, raw);
  CHECK(first == dump(trace, raw));
  CHECK(first.rfind("trace (no handle)  schedule 0x9f3a2b1c0d4e5f67  events 19  truncated "
                    "(the run produced more events)\n", 0) == 0);
}

TEST_CASE("values are shown only when the trace has them", "[localize][dump]") {
  RawSymbolizer raw;
  Trace trace = lost_update();
  CHECK(dump(trace, raw).find("#6  T1  R4  0x5555555580a0  = 41  app+0x114f") != std::string::npos);
  trace.has_values = false;  // read from a version 1 file
  CHECK(dump(trace, raw).find("#6  T1  R4  0x5555555580a0  app+0x114f") != std::string::npos);
}

TEST_CASE("value text: small signed integers in decimal, the rest in hex", "[localize][dump]") {
  CHECK(value_text(7, 4) == "7");
  CHECK(value_text(0xffffffec, 4) == "-20");
  CHECK(value_text(0xffffffffffffffec, 8) == "-20");
  CHECK(value_text(0x1ff, 1) == "-1");  // only the access's bytes count
  CHECK(value_text(65535, 4) == "65535");
  CHECK(value_text(65536, 4) == "0x10000");
  CHECK(value_text(0x555555558010, 8) == "0x555555558010");
}

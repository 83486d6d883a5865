// Run handles: what a user pastes into `ctrlsched replay`. Canonical printing, exact round trips
// and a one-line reason for every malformed handle.
#include <catch2/catch.hpp>

#include <string>

#include "ctrlsched/run_spec.h"

using ctrlsched::PointsMode;
using ctrlsched::RunSpec;
using ctrlsched::StrategyKind;

namespace {

RunSpec pct(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps) {
  RunSpec spec;
  spec.seed = seed;
  spec.strategy = StrategyKind::Pct;
  spec.pct_depth = depth;
  spec.pct_steps = steps;
  return spec;
}

std::string parse_error(const std::string& handle) {
  std::string error;
  const auto spec = ctrlsched::parse_handle(handle, &error);
  CHECK_FALSE(spec.has_value());
  CHECK(error.find('\n') == std::string::npos);
  return error;
}

}  // namespace

TEST_CASE("handles print only non-default fields, in grammar order", "[run_spec]") {
  RunSpec random;
  random.seed = 17;
  CHECK(ctrlsched::to_handle(random) == "17:random");
  random.preemption_bound = 2;
  CHECK(ctrlsched::to_handle(random) == "17:random:pb2");
  random.spurious_wakeups = true;
  random.points = PointsMode::Accesses;
  random.max_steps = 5000;
  random.expected_hash = 0x9f3a2b1c0d4e5f67ull;
  CHECK(ctrlsched::to_handle(random) == "17:random:pb2:sw:acc:m5000@9f3a2b1c0d4e5f67");

  RunSpec p = pct(4, 3, 412);
  p.expected_hash = 0x9f3a2b1c0d4e5f67ull;
  CHECK(ctrlsched::to_handle(p) == "4:pct:d3:k412@9f3a2b1c0d4e5f67");
  p.points = PointsMode::Sync;
  p.expected_hash.reset();
  CHECK(ctrlsched::to_handle(p) == "4:pct:d3:k412:sync");
}

TEST_CASE("handles round-trip through parse_handle", "[run_spec]") {
  RunSpec a;
  a.seed = 18446744073709551615ull;
  RunSpec b = a;
  b.preemption_bound = 0;
  b.spurious_wakeups = true;
  b.points = PointsMode::Sync;
  b.max_steps = 1;
  b.expected_hash = 0;
  RunSpec c = pct(0, 1, 1);
  RunSpec d = pct(99, 7, 123456789);
  d.spurious_wakeups = true;
  d.points = PointsMode::Accesses;
  d.max_steps = 77;
  d.expected_hash = 0xffffffffffffffffull;
  for (const RunSpec& spec : {a, b, c, d}) {
    const std::string handle = ctrlsched::to_handle(spec);
    INFO(handle);
    std::string error;
    const auto parsed = ctrlsched::parse_handle(handle, &error);
    REQUIRE(parsed.has_value());
    CHECK(*parsed == spec);
    CHECK(ctrlsched::to_handle(*parsed) == handle);
  }
}

TEST_CASE("optional fields may come in any order", "[run_spec]") {
  const auto spec = ctrlsched::parse_handle("5:pct:k10:sw:d2:m50:acc");
  REQUIRE(spec.has_value());
  CHECK(spec->pct_depth == 2);
  CHECK(spec->pct_steps == 10);
  CHECK(spec->spurious_wakeups);
  CHECK(spec->points == PointsMode::Accesses);
  CHECK(spec->max_steps == 50);
  CHECK(ctrlsched::to_handle(*spec) == "5:pct:d2:k10:sw:acc:m50");
}

TEST_CASE("malformed handles are rejected with a one-line reason", "[run_spec]") {
  CHECK(parse_error("") == "bad seed '' (expected a decimal number)");
  CHECK(parse_error("x:random") == "bad seed 'x' (expected a decimal number)");
  CHECK(parse_error("-1:random") == "bad seed '-1' (expected a decimal number)");
  CHECK(parse_error("18446744073709551616:random") == "bad seed '18446744073709551616' (expected a decimal number)");
  CHECK(parse_error("17") == "missing strategy after the seed (expected ':random', ':pct', ':pos' or ':surw')");
  CHECK(parse_error("17:fair") == "unknown strategy 'fair' (expected 'random', 'pct', 'pos' or 'surw')");
  CHECK(parse_error("17:replay") == "a replay cannot be named by a handle alone: replay its schedule file");
  CHECK(parse_error("17:random:bogus") == "unknown field 'bogus'");
  CHECK(parse_error("17:random:pb") == "unknown field 'pb'");
  CHECK(parse_error("17:random:pbx") == "unknown field 'pbx'");
  CHECK(parse_error("17:random::sw") == "empty field (two ':' in a row or a trailing ':')");
  CHECK(parse_error("17:random:") == "empty field (two ':' in a row or a trailing ':')");
  CHECK(parse_error("17:random:sw:sw") == "field 'sw' repeats an earlier field");
  CHECK(parse_error("17:random:sync:acc") == "field 'acc' repeats an earlier field");
  CHECK(parse_error("17:random:pb4294967296") == "preemption bound out of range in field 'pb4294967296'");
  CHECK(parse_error("17:random:d3") == "field 'd3' is only valid for pct");
  CHECK(parse_error("17:random:k3") == "field 'k3' is only valid for pct");
  CHECK(parse_error("17:random:m0") == "max steps must be at least 1");
  CHECK(parse_error("4:pct:d3:k10:pb1") == "a preemption bound ('pb1') is only valid for random");
  CHECK(parse_error("4:pct:d0:k10") == "pct depth must be at least 1");
  CHECK(parse_error("4:pct:d1001:k10") == "pct depth must be at most 1000");
  CHECK(parse_error("4:pct:d3:k0") == "pct step count must be at least 1");
  CHECK(parse_error("4:pct:k10") == "pct needs a depth field 'd<depth>'");
  CHECK(parse_error("4:pct:d3") == "pct needs a step count field 'k<steps>'");
  CHECK(parse_error("4:pct:d3:k10:d2") == "field 'd2' repeats an earlier field");
  CHECK(parse_error("17:random@123") == "bad schedule hash '123' (expected 16 hex digits after '@')");
  CHECK(parse_error("17:random@9f3a2b1c0d4e5f6g") ==
        "bad schedule hash '9f3a2b1c0d4e5f6g' (expected 16 hex digits after '@')");
  CHECK(parse_error("17:random@9f3a2b1c0d4e5f67@0") ==
        "bad schedule hash '9f3a2b1c0d4e5f67@0' (expected 16 hex digits after '@')");
  CHECK(parse_error(" 17:random") == "bad seed ' 17' (expected a decimal number)");
}

TEST_CASE("parse_handle without an error pointer just returns nullopt", "[run_spec]") {
  CHECK_FALSE(ctrlsched::parse_handle("17:nope").has_value());
  CHECK(ctrlsched::parse_handle("17:random").has_value());
}

TEST_CASE("hashes format as 16 lowercase hex digits and parse back", "[run_spec]") {
  CHECK(ctrlsched::format_hash(0) == "0000000000000000");
  CHECK(ctrlsched::format_hash(0x9f3a2b1c0d4e5f67ull) == "9f3a2b1c0d4e5f67");
  CHECK(ctrlsched::parse_hash("9f3a2b1c0d4e5f67") == 0x9f3a2b1c0d4e5f67ull);
  CHECK(ctrlsched::parse_hash("9F3A2B1C0D4E5F67") == 0x9f3a2b1c0d4e5f67ull);
  CHECK_FALSE(ctrlsched::parse_hash("9f3a2b1c0d4e5f6").has_value());
  CHECK_FALSE(ctrlsched::parse_hash("9f3a2b1c0d4e5f678").has_value());
  CHECK_FALSE(ctrlsched::parse_hash("+f3a2b1c0d4e5f67").has_value());
  CHECK_FALSE(ctrlsched::parse_hash("0x3a2b1c0d4e5f67").has_value());
}

TEST_CASE("strategy kinds have stable names", "[run_spec]") {
  CHECK(ctrlsched::to_string(StrategyKind::Random) == "random");
  CHECK(ctrlsched::to_string(StrategyKind::Pct) == "pct");
  CHECK(ctrlsched::to_string(StrategyKind::Replay) == "replay");
}

TEST_CASE("pos and surw handles round-trip; surw carries its per-thread estimates", "[run_spec]") {
  RunSpec pos;
  pos.seed = 9;
  pos.strategy = StrategyKind::Pos;
  pos.points = PointsMode::Sync;
  CHECK(ctrlsched::to_handle(pos) == "9:pos:sync");
  CHECK(ctrlsched::parse_handle("9:pos:sync") == pos);
  RunSpec surw;
  surw.seed = 4;
  surw.strategy = StrategyKind::Surw;
  surw.surw_events = {3, 120, 118};
  CHECK(ctrlsched::to_handle(surw) == "4:surw:e3.120.118");
  CHECK(ctrlsched::parse_handle("4:surw:e3.120.118") == surw);
  std::string error;
  CHECK_FALSE(ctrlsched::parse_handle("4:surw", &error));
  CHECK(error == "surw needs an events field 'e<n0>.<n1>...' (estimated events per thread)");
  CHECK_FALSE(ctrlsched::parse_handle("4:surw:e3..4", &error));
  CHECK(error == "bad event count in field 'e3..4' (expected e<n0>.<n1>...)");
  CHECK_FALSE(ctrlsched::parse_handle("4:pos:e3", &error));
  CHECK(error == "field 'e3' is only valid for surw");
  CHECK_FALSE(ctrlsched::parse_handle("4:pos:pb2", &error));
  CHECK_FALSE(ctrlsched::parse_handle("4:pos:d3", &error));
  CHECK_FALSE(ctrlsched::parse_handle("4:portfolio", &error));  // a portfolio seed's handle names its strategy
}

TEST_CASE("a surw handle carries its uniform percent as u<P>, absent for 0", "[run_spec]") {
  RunSpec surw;
  surw.seed = 8;
  surw.strategy = StrategyKind::Surw;
  surw.surw_events = {3, 40};
  surw.surw_uniform_percent = 50;
  surw.points = PointsMode::Sync;
  CHECK(ctrlsched::to_handle(surw) == "8:surw:e3.40:u50:sync");
  CHECK(ctrlsched::parse_handle("8:surw:e3.40:u50:sync") == surw);
  CHECK(ctrlsched::parse_handle("8:surw:u50:sync:e3.40") == surw);  // optional fields in any order
  surw.surw_uniform_percent = 100;
  CHECK(ctrlsched::parse_handle("8:surw:e3.40:u100:sync") == surw);
  std::string error;
  CHECK_FALSE(ctrlsched::parse_handle("8:surw:e3.40:u0", &error));
  CHECK(error == "surw uniform percent must be 1 to 100 (omit the field for 0)");
  CHECK_FALSE(ctrlsched::parse_handle("8:surw:e3.40:u101", &error));
  CHECK(error == "surw uniform percent must be 1 to 100 (omit the field for 0)");
  CHECK_FALSE(ctrlsched::parse_handle("8:surw:e3.40:u50:u50", &error));
  CHECK(error == "field 'u50' repeats an earlier field");
  CHECK_FALSE(ctrlsched::parse_handle("8:surw:e3.40:ux", &error));
  CHECK(error == "unknown field 'ux'");
  CHECK_FALSE(ctrlsched::parse_handle("8:pos:u50", &error));
  CHECK(error == "field 'u50' is only valid for surw");
}

// Schedules read in place from their compact encoding (the shim's input log): the follower and
// the verifier behave exactly as with a decoded copy, decision for decision, divergence texts
// included, and a malformed encoding is an empty schedule.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "core_simulation.h"
#include "ctrlsched/in_place_schedule.h"
#include "ctrlsched/schedule.h"
#include "ctrlsched/strategy.h"

using namespace ctrlsched;

namespace {

std::vector<std::uint8_t> encode(const std::vector<Decision>& decisions) {
  std::vector<std::uint8_t> bytes;
  std::uint8_t buffer[kMaxEncodedDecision];
  for (const Decision d : decisions) {
    const std::size_t n = encode_decision(d, buffer);
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  return bytes;
}

struct Recorded {
  sim::Run run;
  std::vector<Decision> log;
  std::uint64_t hash;
};

Recorded record(const sim::Program& program, Strategy& strategy) {
  sim::VectorSink sink;
  RecordingStrategy recording(strategy, sink);
  return {sim::simulate(program, recording), sink.decisions, recording.hash()};
}

const std::array<Candidate, 2> kT0T1 = {Candidate{0, false}, Candidate{1, false}};

}  // namespace

TEST_CASE("decode_decision reads one decision at a time, as decode_decisions reads them all", "[replay]") {
  const std::vector<Decision> decisions = {{DecisionKind::Schedule, 3},     {DecisionKind::Lease, kUnboundedLease},
                                           {DecisionKind::Wake, 1000},      {DecisionKind::Spurious, 1},
                                           {DecisionKind::Lease, 58},       {DecisionKind::Schedule, 0}};
  const std::vector<std::uint8_t> bytes = encode(decisions);
  std::size_t pos = 0;
  std::vector<Decision> read;
  while (pos < bytes.size()) {
    const std::optional<Decision> d = decode_decision(bytes, pos);
    REQUIRE(d.has_value());
    read.push_back(*d);
  }
  CHECK(read == decisions);
  CHECK(decode_decisions(bytes) == decisions);
  const std::vector<std::uint8_t> truncated = {0x80};
  pos = 0;
  CHECK_FALSE(decode_decision(truncated, pos).has_value());
}

TEST_CASE("a schedule followed in place replays like its decoded copy", "[replay]") {
  Prng scenarios(14);
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const sim::Program program = sim::random_program(scenarios, 5, 8);
    const auto original = seed % 2 ? make_random_strategy(seed, std::nullopt) : make_pct_strategy(seed, 3, 30);
    const Recorded first = record(program, *original);
    const std::vector<std::uint8_t> bytes = encode(first.log);

    const auto in_place = make_replay_strategy_in_place(bytes);
    const Recorded second = record(program, *in_place);
    INFO("seed " << seed);
    REQUIRE_FALSE(in_place->divergence().has_value());
    REQUIRE(second.log == first.log);
    REQUIRE(second.hash == first.hash);

    // The seed's own strategy, verified in place against its log, finds nothing to report.
    const auto again = seed % 2 ? make_random_strategy(seed, std::nullopt) : make_pct_strategy(seed, 3, 30);
    const auto verifying = make_verifying_strategy_in_place(*again, bytes);
    const Recorded third = record(program, *verifying);
    REQUIRE_FALSE(verifying->divergence().has_value());
    REQUIRE(third.hash == first.hash);
  }
}

TEST_CASE("in place, running out of decisions and wrong kinds read as with a copy", "[replay]") {
  const std::vector<std::uint8_t> one = encode({{DecisionKind::Schedule, 1}});
  const auto replay = make_replay_strategy_in_place(one);
  CHECK(replay->next_thread({0, true, PointKind::Sync, 1, kT0T1}) == 1);
  CHECK(replay->next_thread({0, true, PointKind::Sync, 2, kT0T1}) == 0);
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->decision_index == 1);
  CHECK(replay->divergence()->what ==
        "schedule ended after 1 decision but the run asked for another (Schedule among T0 T1)");

  const std::vector<std::uint8_t> wake = encode({{DecisionKind::Wake, 1}});
  const auto wrong_kind = make_replay_strategy_in_place(wake);
  CHECK(wrong_kind->next_thread({0, true, PointKind::Sync, 3, kT0T1}) == 0);
  CHECK(wrong_kind->divergence()->what == "recorded a Wake decision but the run asked for a Schedule decision");
}

TEST_CASE("a malformed encoding is an empty schedule", "[replay]") {
  const std::vector<std::uint8_t> garbage = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  const auto replay = make_replay_strategy_in_place(garbage);
  CHECK(replay->next_thread({0, true, PointKind::Sync, 1, kT0T1}) == 0);
  REQUIRE(replay->divergence().has_value());
  CHECK(replay->divergence()->what ==
        "schedule ended after 0 decisions but the run asked for another (Schedule among T0 T1)");
}

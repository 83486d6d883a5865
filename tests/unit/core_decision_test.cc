// Decision tokens, the schedule hash and the run-record encoding: all three are recorded formats
// read back by other builds, so their exact bytes are pinned here.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "ctrlsched/decision.h"

using ctrlsched::Decision;
using ctrlsched::DecisionKind;

namespace {

constexpr Decision S(std::uint32_t v) { return {DecisionKind::Schedule, v}; }
constexpr Decision W(std::uint32_t v) { return {DecisionKind::Wake, v}; }
constexpr Decision P(std::uint32_t v) { return {DecisionKind::Spurious, v}; }

std::vector<std::uint8_t> encode_all(const std::vector<Decision>& decisions) {
  std::vector<std::uint8_t> bytes;
  for (const Decision d : decisions) {
    std::array<std::uint8_t, ctrlsched::kMaxEncodedDecision> buffer{};
    const std::size_t n = ctrlsched::encode_decision(d, buffer.data());
    REQUIRE(n >= 1);
    REQUIRE(n <= ctrlsched::kMaxEncodedDecision);
    bytes.insert(bytes.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return bytes;
}

}  // namespace

TEST_CASE("tokens print as letter plus decimal value", "[decision]") {
  CHECK(ctrlsched::to_token(S(2)) == "S2");
  CHECK(ctrlsched::to_token(W(0)) == "W0");
  CHECK(ctrlsched::to_token(P(1)) == "P1");
  CHECK(ctrlsched::to_token(S(4294967295u)) == "S4294967295");
  CHECK(ctrlsched::decision_letter(DecisionKind::Wake) == 'W');
}

TEST_CASE("tokens parse back, strictly", "[decision]") {
  CHECK(ctrlsched::parse_token("S2") == S(2));
  CHECK(ctrlsched::parse_token("W0") == W(0));
  CHECK(ctrlsched::parse_token("P1") == P(1));
  CHECK(ctrlsched::parse_token("S4294967295") == S(4294967295u));
  for (const char* bad : {"", "S", "X1", "s1", "S-1", "S+1", "S01", "S1 ", " S1", "S4294967296", "S1x", "SS1"}) {
    INFO("token '" << bad << "'");
    CHECK_FALSE(ctrlsched::parse_token(bad).has_value());
  }
}

TEST_CASE("schedule hash is FNV-1a over kind byte and little-endian value", "[decision]") {
  // Expected values computed independently (Python) from the byte definition in decision.h.
  CHECK(ctrlsched::hash_decision(ctrlsched::kScheduleHashSeed, S(2)) == 0xa4c6f7c878c0702dull);
  std::uint64_t hash = ctrlsched::kScheduleHashSeed;
  for (const Decision d : {S(2), W(0x12345678), P(1)}) hash = ctrlsched::hash_decision(hash, d);
  CHECK(hash == 0xac74b0fe1045445bull);
  // Order matters.
  CHECK(ctrlsched::hash_decision(ctrlsched::hash_decision(ctrlsched::kScheduleHashSeed, S(1)), S(2)) !=
        ctrlsched::hash_decision(ctrlsched::hash_decision(ctrlsched::kScheduleHashSeed, S(2)), S(1)));
}

TEST_CASE("encoding is one LEB128 varint of (value << 2) | kind", "[decision]") {
  CHECK(encode_all({S(0)}) == std::vector<std::uint8_t>{0x00});
  CHECK(encode_all({W(1)}) == std::vector<std::uint8_t>{0x05});
  CHECK(encode_all({P(1)}) == std::vector<std::uint8_t>{0x06});
  CHECK(encode_all({S(32)}) == std::vector<std::uint8_t>{0x80, 0x01});
  CHECK(encode_all({S(4294967295u)}).size() == 5);
}

TEST_CASE("encoded decisions decode back", "[decision]") {
  const std::vector<Decision> decisions = {S(0), S(1), W(7), P(0), P(1), S(31), S(32), S(1000), W(4294967295u)};
  const auto decoded = ctrlsched::decode_decisions(encode_all(decisions));
  REQUIRE(decoded.has_value());
  CHECK(*decoded == decisions);
  CHECK(ctrlsched::decode_decisions({})->empty());
}

TEST_CASE("malformed encodings are rejected", "[decision]") {
  const std::vector<std::uint8_t> truncated = {0x00, 0x80};
  const std::vector<std::uint8_t> too_long = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  const std::vector<std::uint8_t> value_too_big = {0xfc, 0xff, 0xff, 0xff, 0x7f};  // value 2^33 - 1
  CHECK_FALSE(ctrlsched::decode_decisions(truncated).has_value());
  CHECK_FALSE(ctrlsched::decode_decisions(too_long).has_value());
  CHECK_FALSE(ctrlsched::decode_decisions(value_too_big).has_value());
}

TEST_CASE("the fourth kind is a lease, in binary and in text", "[decision]") {
  const std::vector<std::uint8_t> lease_of_five = {0x17};  // (5 << 2) | 3
  const auto decoded = ctrlsched::decode_decisions(lease_of_five);
  REQUIRE(decoded.has_value());
  REQUIRE(decoded->size() == 1);
  CHECK((*decoded)[0] == ctrlsched::Decision{ctrlsched::DecisionKind::Lease, 5});
  CHECK(ctrlsched::to_token({ctrlsched::DecisionKind::Lease, 40}) == "L40");
  CHECK(ctrlsched::parse_token("L40") == ctrlsched::Decision{ctrlsched::DecisionKind::Lease, 40});
}

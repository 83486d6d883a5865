// Decisions as text tokens ("S2", "W0", "P1"), their schedule hash, and their compact binary
// encoding for the shared-memory run record.
//
// The hash and the encoding are part of the recorded format: a replay compares hashes computed by
// different builds, so both are defined byte by byte (decision.h) and never depend on struct
// layout or endianness. parse_token is strict (no sign, no leading zeros, value fits 32 bits) so
// that every decision has exactly one spelling.
#include "ctrlsched/decision.h"

#include "ctrlsched/in_place_schedule.h"

#include <charconv>
#include <limits>

namespace ctrlsched {
namespace {

constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;
constexpr unsigned kKindBits = 2;
constexpr std::uint8_t kKindMask = (1u << kKindBits) - 1;

std::uint64_t fnv1a_byte(std::uint64_t hash, std::uint8_t byte) { return (hash ^ byte) * kFnvPrime; }

std::optional<DecisionKind> kind_from_letter(char letter) {
  switch (letter) {
    case 'S': return DecisionKind::Schedule;
    case 'W': return DecisionKind::Wake;
    case 'P': return DecisionKind::Spurious;
    case 'L': return DecisionKind::Lease;
    default: return std::nullopt;
  }
}

std::optional<DecisionKind> kind_from_bits(std::uint64_t bits) {
  switch (bits) {
    case 0: return DecisionKind::Schedule;
    case 1: return DecisionKind::Wake;
    case 2: return DecisionKind::Spurious;
    case 3: return DecisionKind::Lease;
    default: return std::nullopt;
  }
}

}  // namespace

char decision_letter(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::Schedule: return 'S';
    case DecisionKind::Wake: return 'W';
    case DecisionKind::Spurious: return 'P';
    case DecisionKind::Lease: return 'L';
  }
  return '?';
}

std::string to_token(Decision d) {
  std::string token(1, decision_letter(d.kind));
  token += std::to_string(d.value);
  return token;
}

std::optional<Decision> parse_token(std::string_view token) {
  if (token.size() < 2) return std::nullopt;
  const std::optional<DecisionKind> kind = kind_from_letter(token[0]);
  if (!kind) return std::nullopt;
  const std::string_view digits = token.substr(1);
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // one spelling per value
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return Decision{*kind, value};
}

std::uint64_t hash_decision(std::uint64_t hash, Decision d) {
  hash = fnv1a_byte(hash, static_cast<std::uint8_t>(d.kind));
  for (int byte = 0; byte < 4; ++byte) hash = fnv1a_byte(hash, static_cast<std::uint8_t>(d.value >> (8 * byte)));
  return hash;
}

std::size_t encode_decision(Decision d, std::uint8_t* out) {
  std::uint64_t bits = (static_cast<std::uint64_t>(d.value) << kKindBits) | static_cast<std::uint8_t>(d.kind);
  std::size_t written = 0;
  do {
    std::uint8_t byte = bits & 0x7f;
    bits >>= 7;
    if (bits != 0) byte |= 0x80;
    out[written++] = byte;
  } while (bits != 0);
  return written;
}

std::optional<Decision> decode_decision(std::span<const std::uint8_t> bytes, std::size_t& pos) {
  std::uint64_t bits = 0;
  std::size_t length = 0;
  while (pos < bytes.size() && length < kMaxEncodedDecision) {
    const std::uint8_t byte = bytes[pos++];
    bits |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * length++);
    if ((byte & 0x80) == 0) {
      const std::optional<DecisionKind> kind = kind_from_bits(bits & kKindMask);
      const std::uint64_t value = bits >> kKindBits;
      if (!kind || value > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
      return Decision{*kind, static_cast<std::uint32_t>(value)};
    }
  }
  return std::nullopt;  // truncated or longer than any encoded decision
}

std::optional<std::vector<Decision>> decode_decisions(std::span<const std::uint8_t> bytes) {
  std::vector<Decision> decisions;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const std::optional<Decision> d = decode_decision(bytes, pos);
    if (!d) return std::nullopt;
    decisions.push_back(*d);
  }
  return decisions;
}

}  // namespace ctrlsched

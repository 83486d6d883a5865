// One nondeterministic choice taken during a run, and how a run's choices are hashed and encoded.
//
// A schedule (see schedule.h) is the ordered list of decisions taken at points that had more than
// one option. Decisions name threads by their creation index (T0 = main), never by OS ids, so a
// schedule is meaningful across processes and machines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ctrlsched {

using ThreadId = std::uint32_t;  // creation order: 0 = main thread, 1 = first created, ...

enum class DecisionKind : std::uint8_t {
  Schedule = 0,  // which candidate runs next at a scheduling point (value = thread id); choosing a
                 // thread that sits in a timed wait means "its timeout fires now"
  Wake = 1,      // which waiter a signal / futex wake releases (value = thread id of the waiter)
  Spurious = 2,  // whether a waiter wakes spuriously (value = 0 or 1)
  Lease = 3,     // follows a Schedule decision that kept the current thread: the next `value`
                 // points of that thread keep it too, unless some thread changes state or it
                 // yields, and are not decisions (see Strategy::lease)
};

struct Decision {
  DecisionKind kind;
  std::uint32_t value;
  friend bool operator==(const Decision&, const Decision&) = default;
};

// Token text: 'S' | 'W' | 'P' | 'L' followed by the decimal value, e.g. "S2", "W0", "P1", "L40".
char decision_letter(DecisionKind kind);
std::string to_token(Decision d);
std::optional<Decision> parse_token(std::string_view token);

// Schedule hash: FNV-1a 64 over, per decision, the kind byte then the value as 4 little-endian
// bytes. kScheduleHashSeed is the hash of the empty schedule.
inline constexpr std::uint64_t kScheduleHashSeed = 0xcbf29ce484222325ull;
std::uint64_t hash_decision(std::uint64_t hash, Decision d);

// Compact binary encoding used in the shared-memory run record: one LEB128 varint per decision
// holding (value << 2) | kind. encode_decision writes at most kMaxEncodedDecision bytes and
// returns how many it wrote. decode_decisions returns nullopt on a malformed buffer.
inline constexpr std::size_t kMaxEncodedDecision = 6;
std::size_t encode_decision(Decision d, std::uint8_t* out);
std::optional<std::vector<Decision>> decode_decisions(std::span<const std::uint8_t> bytes);

}  // namespace ctrlsched

// Per-run summary of cross-thread access pairs, written by the shim's access-pair collector into
// the run record (at kSummaryOffset) while the run happens.
//
// An access pair (Locon) is an immediate dependence between two accesses of different threads to
// one memory location, at least one of them a write: R→W, W→R or W→W. "Immediate" means the tail
// is the next access to that location after the head. Pairs are identified by sites and kinds,
// never by addresses (heap addresses change between schedules), and counted. Memory grows with
// locations and distinct pairs, not with accesses (Falcon's point): both tables have fixed
// capacity, and what does not fit is counted, not stored.
#pragma once

#include <cstdint>

namespace ctrlsched {

inline constexpr std::uint32_t kAccessPairsMagic = 0x50414353;  // "SCAP"
inline constexpr std::uint32_t kMaxAccessPairs = 8192;

struct AccessPair {
  std::uint64_t head_site;  // trace_format.h site encoding (module << 48 | offset)
  std::uint64_t tail_site;
  std::uint8_t head_write;  // 1 = write, 0 = read
  std::uint8_t tail_write;
  std::uint16_t reserved;
  std::uint32_t count;      // how often this pair occurred in the run
};

struct AccessPairSummary {
  std::uint32_t magic;           // kAccessPairsMagic once the collector started
  std::uint32_t capacity;        // kMaxAccessPairs
  std::uint32_t used;            // entries filled (in first-seen order)
  std::uint32_t dropped_pairs;   // pair occurrences not stored: the table was full
  std::uint64_t accesses;        // plain shared accesses seen
  std::uint64_t locations;       // distinct locations tracked
  std::uint64_t untracked;       // accesses to locations that did not fit the location table
  AccessPair pairs[kMaxAccessPairs];
};

}  // namespace ctrlsched

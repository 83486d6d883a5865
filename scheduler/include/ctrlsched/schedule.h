// The schedule file: a run's decision log, versioned, printable and loadable, so a failure can
// be replayed even after the seed-to-schedule mapping changes in a later version.
//
// Text format, version 1 (lines; '#' starts a comment line):
//   ctrlsched-schedule 1
//   handle <run handle, see run_spec.h>
//   hash <16 hex digits>
//   decisions <count>
//   <tokens separated by single spaces, at most 100 characters per line>
// A token is a decision (decision.h) optionally followed by "*<n>" (n >= 2) meaning it repeats n
// times, e.g. "S1*12 W0 S2". Loading checks the version, the count and the hash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrlsched/decision.h"

namespace ctrlsched {

inline constexpr int kScheduleFormatVersion = 1;

struct Schedule {
  std::string handle;
  std::uint64_t hash = kScheduleHashSeed;
  std::vector<Decision> decisions;
};

std::uint64_t hash_decisions(const std::vector<Decision>& decisions);
std::string to_text(const Schedule& schedule);
// On failure returns nullopt and a one-line reason ("line 3: bad token 'X9'", "hash mismatch").
std::optional<Schedule> parse_schedule(std::string_view text, std::string* error = nullptr);

}  // namespace ctrlsched

// Symptoms: patterns that happen because the failure already happened (docs/localization.md,
// "Symptoms"). An access whose site no passing run executes lies on the
// failure path (error handling, an audit that only writes when it found the damage): a pattern
// containing it can only complete once the failure is determined, so forcing it "reproduces" the
// failure by selection, not by cause. Such patterns are ranked after every other pattern and can
// never be `confirmed`.
#pragma once

#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "ctrlsched/localize/falcon.h"

namespace ctrlsched::driver {

// Every site a passing run executed (FalconRun::executed), and every site of every pattern
// a passing run saw. The patterns alone are not enough: a read that no other thread's access
// follows forms no pattern (c11_refcount's test of the count after its decrement), so a run whose
// site table overflowed counts only its patterns' sites; the driver also adds every site of the
// passing runs' cross-thread access pairs.
std::set<std::uint64_t> passing_sites(std::span<const localize::FalconRun> runs);

// True if some site of the pattern is in no passing run's patterns. Without any passing run
// nothing is a symptom (there is nothing to compare with).
bool is_symptom(const localize::FalconPatternId& pattern, const std::set<std::uint64_t>& passing, bool any_passing);

// Moves symptoms after all other patterns (order otherwise kept) and renumbers the ranks (equal
// rank keys, falcon_rank_key with `sync_first` as the ranking used it, share a rank within each
// group). Returns the symptom flag of each pattern, new order.
std::vector<bool> demote_symptoms(localize::FalconRanking& ranking, const std::set<std::uint64_t>& passing,
                                  bool any_passing, bool sync_first = false);

}  // namespace ctrlsched::driver

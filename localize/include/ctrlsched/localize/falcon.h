// Falcon's statistical ranking of interleaving patterns across runs (Park, Vuduc, Harrold,
// ICSE 2010, section 3.2): each run contributes the set of patterns it saw (its Falcon summary,
// read by the driver) and whether it failed; every pattern gets passed(s), failed(s) and a
// suspiciousness score, and the patterns are ranked.
//
// Scores (totalfailed / totalpassed = failing / passing runs):
//   Jaccard (default, Falcon's)  failed(s) / (totalfailed + passed(s))
//   Tarantula                    %failed / (%failed + %passed), %x = x(s) / totalx
//   Ochiai                       failed(s) / sqrt(totalfailed * (failed(s) + passed(s)))
// A zero denominator gives 0.
//
// Order (deterministic, independent of the order of patterns within a run), the rank key
// (falcon_rank_key):
//   1. score descending (Falcon's ranking);
//   2. failed(s) descending, then passed(s) ascending: more evidence first;
//   3. when asked (sync_first: the failure is a deadlock or a hang), sync patterns before
//      memory-access patterns;
//   4. specificity: an unserializable triple (R1-W2-R1, W1-W2-R1, W1-R2-W1, R1-W2-W1, or a sync
//      triple) before a pair, a pair before the serializable triple W1-W2-W1. A triple seen in
//      exactly the same runs as its pairs is the more specific explanation (an atomicity
//      violation needs all three accesses, and forcing the pair alone does not bring it back);
//      W1-W2-W1 ends in the state its pair W1-W2 leaves and explains nothing more.
// Patterns equal in the whole key share a rank (competition ranking 1, 1, 3: `rank` = 1 + the
// number of patterns with a smaller key, `tied` = how many share it); within it, kind
// (FalconKind order), then the sites ascending, which is deterministic but says nothing, so it
// does not split the rank.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ctrlsched/falcon_window.h"

namespace ctrlsched::localize {

enum class FalconScore : std::uint8_t { Jaccard, Tarantula, Ochiai };

// "jaccard", "tarantula", "ochiai".
std::string_view to_string(FalconScore score);
std::optional<FalconScore> parse_falcon_score(std::string_view text);

// What makes two patterns the same across runs: kind and access sites (sites[2] = 0 for pairs),
// and for sync patterns the operation of each side (SyncOp, ctrlsched/sync_ops.h; 0 otherwise).
struct FalconPatternId {
  FalconKind kind = FalconKind::R1W2;
  std::array<std::uint64_t, 3> sites{};
  std::array<std::uint8_t, 3> ops{};
  auto operator<=>(const FalconPatternId&) const = default;
};

// The pattern's kind as reports spell it: "R1-W2-R1", or for sync patterns the operations with
// their roles, "signal1-wait2", "lock1-lock2".
std::string falcon_pattern_name(const FalconPatternId& id);

// One pattern as one run saw it.
struct FalconSighting {
  FalconPatternId id;
  std::uint32_t count = 1;                // occurrences in the run
  std::uint64_t location = 0;             // address of its first occurrence
  std::string location_name;              // e.g. "balance"; empty when not a known global
  std::array<std::uint32_t, 2> threads{};  // threads of role 1 and role 2 (first occurrence)
  bool cut_short = false;  // inferred by add_orders_cut_short: the run ended before the write
  // The program counters of this occurrence when merge_by_statement gave the pattern its
  // statements' sites (all 0 otherwise: id.sites are the pcs). A directive forcing the pattern
  // needs real pcs: forcing_sites().
  std::array<std::uint64_t, 3> pcs{};
  std::array<std::uint64_t, 3> forcing_sites() const { return pcs[0] != 0 ? pcs : id.sites; }
};

// One access or sync operation a run executed (the collector's table, ctrlsched/falcon_patterns.h).
struct ExecutedAccess {
  std::uint64_t site = 0;
  std::uint64_t location = 0;  // an address of this run
  bool write = false;
  bool sync = false;
  auto operator<=>(const ExecutedAccess&) const = default;
};

struct FalconRun {
  bool failed = false;
  std::vector<FalconSighting> patterns;  // each id at most once
  std::uint32_t dropped = 0;             // occurrences the run's table had no room for
  std::uint64_t fixed_by_lifecycle = 0;  // occurrences not counted: orders creation or join fixes
  // Every distinct access and sync operation the run executed, sorted; nullopt when not known
  // (the collector's table overflowed, or a run stored before they were collected).
  std::optional<std::vector<ExecutedAccess>> executed;
};

struct RankedFalconPattern {
  FalconPatternId id;
  std::uint32_t passed = 0;     // passing runs that saw it
  std::uint32_t failed = 0;     // failing runs that saw it
  std::uint64_t occurrences = 0;
  double score = 0;
  std::uint32_t rank = 0;       // 1-based; equal scores share a rank
  std::uint32_t tied = 0;       // patterns sharing this rank (1 = alone)
  FalconSighting example;       // from the first failing run that saw it, else the first run
  std::uint32_t failed_cut_short = 0;  // of `failed`: runs that ended before its write (cut_short)
};

struct FalconRanking {
  FalconScore score = FalconScore::Jaccard;
  std::uint32_t runs = 0;
  std::uint32_t total_failed = 0;
  std::uint32_t total_passed = 0;
  std::uint64_t dropped = 0;  // sum of the runs' dropped occurrences
  std::uint64_t fixed_by_lifecycle = 0;  // sum of the runs' occurrences of orders creation or join fixes
  std::vector<RankedFalconPattern> patterns;  // in rank order
};

// The key patterns are ranked by (see the order above); equal keys share a rank.
struct FalconRankKey {
  double score = 0;        // negated: smaller first
  std::int64_t failed = 0; // negated
  std::uint32_t passed = 0;
  std::uint8_t sync_group = 0;
  std::uint8_t specificity = 0;
  auto operator<=>(const FalconRankKey&) const = default;
};
FalconRankKey falcon_rank_key(const RankedFalconPattern& p, bool sync_first);

double falcon_score(FalconScore score, std::uint32_t failed, std::uint32_t passed, std::uint32_t total_failed,
                    std::uint32_t total_passed);

// Orders a run's end cut short (docs/localization.md): a run that read a location at site r but
// never wrote that location at site w, where another thread's write at w reached a read at r in
// some run (W1-R2 (w, r)) and some run wrote that location at w, read before w. When a failing
// read crashes or exits the process (an order violation whose read comes first), the write never
// happens and Falcon's window never sees R1-W2 (r, w), although that is the order the run had.
// Adds that R1-W2 sighting (cut_short =
// true, at the location read; threads from the W1-R2's first sighting, roles swapped) to every
// such run that knows what it executed and does not have it already; returns how many were
// added. Passing runs get it as well as failing ones. With `statement_of` (merge_by_statement's
// map), w stands for its statement: a run in which another copy of w's statement (the same line
// inlined into another caller) wrote the location did write it there, and gets no such order
// (corpus maintenance3: `serving += delta` inlined for the -1 and the +1; a failing run's -1s
// write `serving`, its +1s never run, and "the write at line 27 never happened" was ranked first).
std::size_t add_orders_cut_short(std::vector<FalconRun>& runs,
                                 const std::map<std::uint64_t, std::uint64_t>& statement_of = {});

// Patterns of one statement, not of one instruction: the same source line compiled twice (a
// function inlined into two callers, two lambdas running it) has two program counters, and
// Falcon would count one interleaving of the program's statements as two patterns, each with
// part of the runs, printed alike. `statement_of` maps each site to one site standing for its
// statement (sites missing from it stay as they are); every sighting's sites are replaced by
// those (its pcs kept in FalconSighting::pcs) and sightings that become equal within a run are
// merged (counts added, the first kept). docs/localization.md, "One statement, one site".
void merge_by_statement(std::vector<FalconRun>& runs, const std::map<std::uint64_t, std::uint64_t>& statement_of);

// sync_first: among patterns equal in score, failed(s) and passed(s), sync patterns come before
// memory-access patterns (the driver asks for it when the failure is a deadlock or a hang: no
// thread could go on, which is a state of the synchronization, docs/localization.md).
FalconRanking rank_falcon(std::span<const FalconRun> runs, FalconScore score = FalconScore::Jaccard,
                          bool sync_first = false);

}  // namespace ctrlsched::localize

// Locon: localizing the buggy access pairs of one failing run by comparing its access pairs with
// those of passing runs of the same test (three test procedures, one per manifestation scenario).
//
//   Procedure I   pairs that only the failed run has, minus those that predict another such
//                 pair (they are consequences), in occurrence order.
//   Procedure II  pairs that every passing run has but the failed run misses: the failing access
//                 ended the run before the pair's tail, so the culprit is the reversed pair. Also
//                 partially missing coupled pairs (always together in passing runs, only one of
//                 them in the failed run): the missing one's reversed pair. A culprit whose tail
//                 the failed run shows executing is not reported.
//   Procedure III two pairs on different locations between the same two threads, each seen in
//                 passing runs, never both in one passing run, both in the failed run; checked at
//                 pc, then tid, then loop level.
//
// Pure: run summaries in (the access-pair collector's entries, ctrlsched/access_pairs.h), ranked
// findings out. Decisions (predictability, ranking, levels): docs/localization.md, "Locon
// access pairs".
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctrlsched::localize::locon {

// How precisely a dynamic access is identified. Pc: site and kind. Tid: + thread. Loop: + the
// iteration (previous executions of the site in the function activation).
enum class Level : std::uint8_t { Pc, Tid, Loop };
enum class Procedure : std::uint8_t { I = 1, II = 2, III = 3 };

std::string_view name(Level level);          // "pc", "tid", "loop"
std::string_view name(Procedure procedure);  // "I", "II", "III"

struct Side {
  std::uint64_t site = 0;  // trace_format.h site encoding
  bool write = false;
  std::uint32_t thread = 0;
  std::uint8_t iteration = 0;
  std::uint8_t sync = 0;   // SyncOp (ctrlsched/sync_ops.h) when the side is a sync operation
  auto operator<=>(const Side&) const = default;
};

// A pair's identity at some level (fields finer than the level are zero).
struct PairKey {
  Side head;
  Side tail;
  auto operator<=>(const PairKey&) const = default;
};

PairKey at_level(const PairKey& key, Level level);
PairKey reversed(const PairKey& key);

// One collector entry: a distinct pair at the finest level, with what its first occurrence saw.
struct Pair {
  PairKey key;
  std::uint64_t location = 0;     // address: compares locations within one run only
  std::uint32_t head_access = 0;  // program order: index among the run's accesses at the first
  std::uint32_t tail_access = 0;  //   occurrence
  std::uint32_t count = 1;
};

// One run's pairs, in first-occurrence order (the index is the pair's occurrence order).
struct RunPairs {
  std::vector<Pair> pairs;
  // Every access the run executed, as (site, is a write), sorted, when known (the driver takes it
  // from the Falcon collector; nullopt with --access-pairs alone). Procedure II reports a culprit
  // only if its head ran in the failed run: the failing access that ended the run is the head.
  std::optional<std::vector<std::pair<std::uint64_t, bool>>> executed;
};

struct Finding {
  Procedure procedure = Procedure::I;
  Level level = Level::Pc;
  // The reported pair first. II: the reversed (culprit) pair, then for coupled pairs the partner
  // that the failed run has. III: the two coupled pairs in occurrence order.
  std::vector<PairKey> pairs;
  // The rank: I and III, the first occurrence in the failed run (III: the earlier pair's);
  // II, the missing original pair's occurrence in the first passing run that has it.
  std::uint32_t order = 0;
  std::string reason;  // one line
  // II with a partner: whether the culprit's accesses come before the partner's in each thread's
  // program order (in the passing run that had both), so that forcing the two pairs as one order
  // puts the culprit first; else the partner first (the one the failed run had).
  bool culprit_first = false;
  bool operator==(const Finding&) const = default;
};

struct Options {
  std::optional<Procedure> procedure;  // nullopt: I, II, III in turn until one finds something
  std::optional<Level> level;          // nullopt: pc, then tid, then loop
  // The failed run ended in a deadlock: every thread stopped at an operation that waits, and
  // those operations formed their pairs (a blocked lock is a `lock` side). Procedure II is for
  // buggy pairs that an error-terminating access kept from forming (the paper's Scenario II);
  // in a deadlock nothing kept the cycle's pairs from forming, while every pair of every
  // thread's code after the deadlock is missing, so II's "in every passing run, not in the
  // failed one" is what any deadlocked run shows. With nullopt `procedure`, II is then skipped.
  bool failed_run_deadlocked = false;
};

// For each level (pc, tid, loop, or the chosen one) the procedures I, II, III (or the chosen
// one): the findings of the first that has any, in rank order. Empty when none applies.
std::vector<Finding> localize(const RunPairs& failed, const std::vector<RunPairs>& passing,
                              const Options& options = {});

// The procedures at one level each, in rank order.
std::vector<Finding> procedure_one(const RunPairs& failed, const std::vector<RunPairs>& passing,
                                   Level level);
std::vector<Finding> procedure_two(const RunPairs& failed, const std::vector<RunPairs>& passing,
                                   Level level);
std::vector<Finding> procedure_three(const RunPairs& failed, const std::vector<RunPairs>& passing,
                                     Level level);

// `a` is predictable by `b` (both of one run): b's order implies a's. Same head thread and same
// tail thread, a's head runs before b's head and b's tail before a's tail, so a.head → b.head →
// b.tail → a.tail (and not the other way round).
bool predictable_by(const Pair& a, const Pair& b);

}  // namespace ctrlsched::localize::locon

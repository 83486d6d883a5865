// RunSpec: everything that determines one run's schedule, and its printable replay handle.
//
// A handle is self-contained: replaying it needs nothing but the same binary and arguments.
// Grammar (fields separated by ':'; optional ones are printed only when not at their default):
//   <seed>:random[:pb<K>][:sw][:<points>][:m<max-steps>][@<hash>]
//   <seed>:pct:d<depth>:k<steps>[:sw][:<points>][:m<max-steps>][@<hash>]
//   <n>:dfs[:<points>][:m<max-steps>][@<hash>]   (the n-th schedule of a dfs exploration; it is
//                                                 replayed from its saved schedule file)
//   <seed>:pos[:sw][:<points>][:m<max-steps>][@<hash>]
//   <seed>:surw:e<n0>.<n1>...[:u<percent>][:sw][:<points>][:m<max-steps>][@<hash>]
// (surw's e-field: the estimated events of each thread T0, T1, ... in creation order; its
// u-field: the percent, 1-100, of weighted choices made uniformly instead, absent for 0.)
// where <points> is "sync" or "acc" (printed only when it differs from the default: see
// PointsMode::Auto), and <hash> is the 16-hex-digit schedule hash the run produced. Examples:
//   17:random             17:random:pb2            4:pct:d3:k412@9f3a2b1c0d4e5f67
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctrlsched {

// Preemptions: follow a list of switch points (preemption_schedule.h), passed like a replay's
// decisions in the run record's input log; used by `ctrlsched shrink`.
// Dfs: one schedule of the exhaustive bounded search (ctrlsched/dfs.h).
// Pos and Surw: docs/strategies.md. Portfolio names no schedule of its own: the driver resolves it
// per seed into one of the others (portfolio.h), so it never reaches a handle or the shim.
enum class StrategyKind : std::uint8_t { Random = 0, Pct = 1, Replay = 2, Preemptions = 3,
  Pos = 5, Surw = 6, Portfolio = 7, Dfs = 8 };

// Where scheduling points are: only at synchronization operations, or also at every instrumented
// memory access. Auto = accesses when the binary is instrumented, sync otherwise.
enum class PointsMode : std::uint8_t { Auto = 0, Sync = 1, Accesses = 2 };

inline constexpr std::uint32_t kDefaultPctDepth = 3;
inline constexpr std::uint64_t kDefaultMaxSteps = 1'000'000;
// SURW: per-thread event estimates beyond this many threads are not carried (later threads get
// the mean of the others; surw_strategy.cc).
inline constexpr std::size_t kMaxSurwThreads = 64;
// SURW: the uniform share is a percent.
inline constexpr std::uint32_t kMaxSurwUniformPercent = 100;

struct RunSpec {
  std::uint64_t seed = 0;
  StrategyKind strategy = StrategyKind::Random;
  std::uint32_t pct_depth = kDefaultPctDepth;      // PCT only: bug depth d (>= 1)
  std::uint64_t pct_steps = 0;                     // PCT only: k, expected number of steps (>= 1)
  std::optional<std::uint32_t> preemption_bound;   // random only
  std::vector<std::uint32_t> surw_events;          // SURW only: estimated events per thread (non-empty)
  std::uint32_t surw_uniform_percent = 0;          // SURW only: uniform choices, 0-100 (surw_strategy.cc)
  bool spurious_wakeups = false;
  PointsMode points = PointsMode::Auto;
  std::uint64_t max_steps = kDefaultMaxSteps;
  std::optional<std::uint64_t> expected_hash;      // set when a handle carried "@<hash>"

  friend bool operator==(const RunSpec&, const RunSpec&) = default;
};

std::string_view to_string(StrategyKind kind);
std::string to_handle(const RunSpec& spec);
// Parses a handle; on failure returns nullopt and, if error != nullptr, a one-line reason.
std::optional<RunSpec> parse_handle(std::string_view text, std::string* error = nullptr);

// 16 lowercase hex digits.
std::string format_hash(std::uint64_t hash);
std::optional<std::uint64_t> parse_hash(std::string_view text);

}  // namespace ctrlsched

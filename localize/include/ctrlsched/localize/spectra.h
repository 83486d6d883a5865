// Block spectra across runs (Koca, Sozer, Abreu: spectrum-based fault localization for
// concurrency faults, the SCURF tool): per run, whether each component (function) was executed
// concurrently by more than one thread; components ranked by the paper's modified Ochiai
// coefficient; and the directed exploration that forces a context switch at the entry of one
// component per run (level 1), then of two (level 2).
//
// Modified Ochiai (section 4.3): with n11 = failing runs where the component ran concurrently,
// n10 = passing runs where it ran concurrently, n01 = failing runs where it did not (entered once,
// by one thread, or not at all),
//   s = n11 / sqrt((n11 + n01) * (n11 + n10)),   0 when the denominator is 0.
// Order: score descending, n11 descending, n10 ascending, site ascending. Equal scores share a
// rank (1, 1, 3); `tied` says how many components share it.
//
// Stopping rule ("significant", decision in docs/localization.md): at least one failing run, the
// top score is at least `min_top_score`, and the components at rank 1 are separated from the
// best-scored component below them by at least `margin` (or there is none below them).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ctrlsched/force_directive.h"

namespace ctrlsched::localize {

// One component as one run saw it.
struct ComponentObservation {
  std::uint64_t site = 0;          // function site (FuncEntry address)
  std::uint64_t call_site = 0;     // call site of the first entry
  std::uint64_t entries = 0;       // 0 = listed but never entered
  std::uint32_t threads = 0;       // distinct threads that entered it
  bool concurrent = false;         // two threads inside at once (SCURF's a_ij > 1)
  std::array<std::uint32_t, 2> concurrent_threads{};
  std::uint64_t first_entry = 0;   // order of its first entry in the run
};

struct SpectraRun {
  bool failed = false;
  std::vector<ComponentObservation> components;  // each site at most once
};

struct RankedComponent {
  std::uint64_t site = 0;
  std::uint32_t n11 = 0, n10 = 0, n01 = 0, n00 = 0;
  std::uint32_t entered_runs = 0;  // runs that entered it at all
  double score = 0;
  std::uint32_t rank = 0;
  std::uint32_t tied = 0;
  ComponentObservation example;    // from the first failing run where it ran concurrently, else the first run
};

double modified_ochiai(std::uint32_t n11, std::uint32_t n10, std::uint32_t n01);

// Every component listed by any run is ranked (a component a run does not list counts as not
// concurrent in that run).
std::vector<RankedComponent> rank_spectra(std::span<const SpectraRun> runs);

struct SignificanceRule {
  double min_top_score = 0.5;
  double margin = 0.25;
};
bool spectra_significant(std::span<const RankedComponent> ranking, std::uint32_t failing_runs,
                         SignificanceRule rule = {});

// --- Directed exploration (plan only; the shim forces ForceKind::SwitchAtEntry) ---------------

// The components worth forcing, best first: those entered by two threads or more in some run,
// ranked by their modified Ochiai over `runs`, then those entered by one thread only (SCURF forces
// every component; they come last so a small budget goes to the likely ones), each group in
// ranking order.
std::vector<std::uint64_t> spectra_candidates(std::span<const SpectraRun> runs);

struct PlannedDirective {
  ForceDirective directive{};  // kind SwitchAtEntry, steps = component sites (access Entry)
  std::uint32_t seeds = 1;     // runs with this directive (different seeds)
  std::uint32_t level = 1;     // 1 or 2
};

// The runs of one level: level 1 forces each candidate alone, level 2 each unordered pair
// (i < j in candidate order). At most `budget` runs in total (seeds included); a directive that
// no longer fits gets the seeds left, and planning stops.
std::vector<PlannedDirective> plan_spectra_level(std::span<const std::uint64_t> candidates, std::uint32_t level,
                                                 std::uint32_t seeds_per_directive, std::uint64_t budget);

}  // namespace ctrlsched::localize

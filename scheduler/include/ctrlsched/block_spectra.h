// Per-run block spectra (SCURF; --collect spectra), written by the shim's spectra collector into
// the run record at kSpectraOffset while the run happens.
//
// Components are functions, identified by the function site of their FuncEntry events (a pc
// inside the entered function: stable across runs of one binary, symbolizes to the function).
// Per component the run records whether it was entered and whether it was executed
// concurrently: one thread was inside it (between its entry and its exit) while another thread
// entered it. Recursion is one thread inside. SCURF's a_ij > 1 is `concurrent` here.
// Fixed capacity: components that do not fit are counted, not stored.
#pragma once

#include <cstdint>

#include "ctrlsched/run_record.h"

namespace ctrlsched {

inline constexpr std::uint32_t kBlockSpectraMagic = 0x43455053;  // "SPEC"
inline constexpr std::uint32_t kMaxSpectraComponents = 4096;
inline constexpr std::uint32_t kMaxSpectraDepth = 64;  // tracked call depth per thread

struct ComponentSpectrum {
  std::uint64_t site;                   // function site (FuncEntry address)
  std::uint64_t call_site;              // call site of the first entry
  std::uint64_t entries;                // entries by all threads, recursion included
  std::uint64_t first_entry;            // index of its first entry among the run's function entries
  std::uint32_t threads;                // distinct threads that entered it
  std::uint32_t max_inside;             // most threads inside at once
  std::uint32_t first_thread;           // thread of the first entry
  std::uint32_t concurrent;             // 1 if two threads were inside at once
  std::uint32_t concurrent_threads[2];  // first time: the thread inside, the thread entering
};

struct BlockSpectraSummary {
  std::uint32_t magic;          // kBlockSpectraMagic once the collector started
  std::uint32_t capacity;       // kMaxSpectraComponents
  std::uint32_t used;           // components filled, in first-entry order
  std::uint32_t dropped;        // entries of components that did not fit
  std::uint64_t entries;        // function entries seen
  std::uint64_t deep_entries;   // entries deeper than kMaxSpectraDepth (not tracked for concurrency)
  std::uint32_t finished;       // 1 once the end-of-run hook ran
  std::uint32_t reserved;
  ComponentSpectrum components[kMaxSpectraComponents];
};
static_assert(kSpectraOffset + sizeof(BlockSpectraSummary) <= kSummaryEnd);

}  // namespace ctrlsched

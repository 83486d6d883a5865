// Address space for the mappings only some runs make (the trace region of `ctrlsched trace`, the
// tables of the --localize / --access-pairs collectors), reserved in every run.
//
// A seed run with collectors, the replay of its handle without them and a traced replay must lay
// out the test's address space alike: the test's own mappings (thread stacks, large mallocs) are
// placed below whatever the shim mapped before, so a mapping made in one mode only would move
// them, and a test whose path depends on addresses would take another path in the replay than in
// the seed run. At start-up the shim reserves one fixed range (PROT_NONE, no memory committed)
// with a slot per optional mapping, and each of those mappings is made inside its slot
// (MAP_FIXED). A mapping larger than its slot falls back to a plain mmap (correct, but then the
// layout differs between modes).
#pragma once

#include <cstddef>

namespace ctrlsched::shim {

enum class OptionalMap : unsigned {
  Trace,                 // ctrlsched trace's event region (kTraceRegionBytes)
  AccessPairTables,      // --access-pairs / --localize
  AccessPairIterations,
  Falcon,                // --localize
  Spectra,               // --localize
  Count,
};

// At start-up, in every run, before any optional mapping.
void reserve_optional_maps();

// mmap(nullptr, bytes, prot, flags, fd, 0) placed in `which`'s slot. Returns MAP_FAILED on error.
void* map_optional(OptionalMap which, std::size_t bytes, int prot, int flags, int fd);

}  // namespace ctrlsched::shim

// --shard K/N: which part of the seeds one machine runs, so that N machines together run what
// one would (docs/scale-out.md).
//
// Mapping: seed index i (seed = --seed-start + i) belongs to shard K of N iff i % N == K - 1
// (round robin, K counted from 1). Why round robin and not contiguous blocks: every shard starts
// at the lowest seeds, so each shard's own report (and a shard that is cut short) samples the
// whole seed range, and the shards' sizes differ by at most one for any count. The mapping
// depends only on the seed index, never on timing, so a merge of all shards is the single run.
//
// `--shard auto` takes K and N from the environment the engine sets; see shard_from_environment.
// Pure: the environment comes in as a lookup function, so the rules are unit-tested.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace ctrlsched::driver {

struct Shard {
  std::uint64_t index = 1;  // K, 1..count
  std::uint64_t count = 1;  // N
};

// A variable's value, or nullopt when it is not set.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// "K/N" with 1 <= K <= N. Throws DriverError(Usage) naming `where` ("--shard", or the variable).
Shard parse_shard(const std::string& text, const std::string& where);

// `--shard auto`, first match wins:
//   CTRLSCHED_SHARD=K/N                         (a CI matrix; K from 1)
//   JOB_COMPLETION_INDEX=i + CTRLSCHED_SHARD_COUNT=N   (Kubernetes Indexed Job; i from 0; the
//                                               count is not in the pod's environment, so the
//                                               manifest passes its `completions` value)
//   SLURM_ARRAY_TASK_ID=i + SLURM_ARRAY_TASK_COUNT=N   (Slurm array; ids must be 0..N-1, i.e.
//                                               --array=0-<N-1>; SLURM_ARRAY_TASK_MIN is honoured)
// Throws DriverError(Usage) when none is set or a value is malformed.
Shard shard_from_environment(const EnvironmentLookup& lookup);

// The --shard value as given ("K/N" or "auto") resolved against the environment.
Shard resolve_shard(const std::string& text, const EnvironmentLookup& lookup);

// The seeds of `shard` among `count` seeds: count_in_shard of them, at indices first, first +
// stride, ... (first = K - 1, stride = N).
std::uint64_t seeds_in_shard(std::uint64_t count, const Shard& shard);

}  // namespace ctrlsched::driver

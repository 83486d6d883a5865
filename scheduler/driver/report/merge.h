// `ctrlsched merge`: the shard reports of one sharded seeds run (--shard K/N, docs/scale-out.md)
// put back together into the report a single machine would have written.
//
// What is rebuilt: the runs (each shard's run objects as they are, in seed order), the outcome
// counts, the failures, the failure groups (counts added up per signature, the first seed and its
// replay command, message and output tail taken from the shard that ran it, groups ordered by
// first seed as group_failures orders them) and the text summary. The summary fields that say
// what was run (strategy, depth, the calibrated k, max steps, target, seeds requested, ...) must
// be equal in every shard; summary fields and top-level sections this code does not know are
// kept when all shards agree on them, so a newer report field survives a merge.
// What is not recomputed: `localization` (it needs the collectors' summaries from every run
// record, which the JSON does not carry) is dropped with a warning; elapsed_s is the largest of
// the shards' (the wall time when they ran at once).
//
// Pure: the reports come in parsed, the result goes out as values; modes/merge.cc reads and
// writes the files.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace ctrlsched::driver {

struct ShardReport {
  std::string name;                 // the file, for messages
  nlohmann::ordered_json json;      // its ctrlsched-run/1 report
};

struct MergedReport {
  Report report;                    // header, runs (the fields the summary needs), groups, counts
  nlohmann::ordered_json json;      // the merged ctrlsched-run/1 report
  std::vector<std::string> warnings;
};

// Throws DriverError(Usage) naming the file and the field when the reports are not the shards of
// one run: a wrong schema, not a shard report, different shard counts, a missing or repeated
// shard, a summary field that differs, or seeds that are not exactly the requested ones.
MergedReport merge_shard_reports(const std::vector<ShardReport>& shards);

}  // namespace ctrlsched::driver

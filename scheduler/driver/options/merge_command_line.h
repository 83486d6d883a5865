// The command line of `ctrlsched merge [--json FILE] [--quiet] REPORT.json...` (docs/scale-out.md):
// the shard reports to put together, where to write the merged JSON report, and whether to print
// only the failures. Its own small grammar: merge runs nothing, so none of the run options apply.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ctrlsched::driver {

struct MergeCommandLine {
  std::vector<std::string> reports;  // the shards' --json files, in any order
  std::optional<std::string> json;   // --json FILE: the merged report
  bool quiet = false;                // --quiet: as in seeds mode
  bool help = false;
};

// `args` are the words after "merge". Throws DriverError(Usage).
MergeCommandLine parse_merge_command_line(std::span<const std::string> args);

// The usage text of `ctrlsched merge --help`.
const char* merge_help_text();

}  // namespace ctrlsched::driver

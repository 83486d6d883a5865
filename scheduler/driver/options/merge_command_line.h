// The command line of `ctrlsched merge [--json FILE] [--quiet] REPORT.json...` and of
// `ctrlsched merge --into STORE STORE...` (docs/scale-out.md): the shard reports (or run stores) to
// put together, where to write the merged JSON report (or store), and whether to print only the
// failures. Its own small grammar: merge runs nothing, so none of the run options apply.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ctrlsched::driver {

struct MergeCommandLine {
  std::vector<std::string> reports;  // the shards' --json files (with --into: run stores), in any order
  std::optional<std::string> json;   // --json FILE: the merged report
  std::optional<std::string> into;   // --into STORE: copy the run stores into this one
  bool quiet = false;                // --quiet: as in seeds mode
  bool help = false;
};

// `args` are the words after "merge". Throws DriverError(Usage).
MergeCommandLine parse_merge_command_line(std::span<const std::string> args);

// The usage text of `ctrlsched merge --help`.
const char* merge_help_text();

}  // namespace ctrlsched::driver

// Parsing `ctrlsched merge` (see merge_command_line.h).
#include "exit_codes.h"
#include "options/merge_command_line.h"

namespace ctrlsched::driver {

MergeCommandLine parse_merge_command_line(std::span<const std::string> args) {
  MergeCommandLine cl;
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done || arg.empty() || arg[0] != '-' || arg == "-") {
      cl.reports.push_back(arg);
    } else if (arg == "--") {
      options_done = true;
    } else if (arg == "--json" || arg.starts_with("--json=")) {
      std::string value;
      if (arg == "--json") {
        if (i + 1 >= args.size()) usage_error("option '--json' needs a value (FILE)");
        value = args[++i];
      } else {
        value = arg.substr(7);
      }
      if (value.empty()) usage_error("--json needs a non-empty value");
      if (cl.json) usage_error("merge: --json given twice");
      cl.json = value;
    } else if (arg == "--quiet") {
      cl.quiet = true;
    } else if (arg == "--help" || arg == "-h") {
      cl.help = true;
    } else {
      usage_error("unknown option '" + arg + "' for 'ctrlsched merge' (it takes --json FILE and --quiet)");
    }
  }
  if (!cl.help && cl.reports.empty()) usage_error("merge needs the shards' JSON reports (ctrlsched merge a.json b.json ...)");
  return cl;
}

const char* merge_help_text() {
  return "Usage: ctrlsched merge [--json FILE] [--quiet] SHARD.json...\n"
         "\n"
         "Puts the --json reports of all shards of one sharded seeds run (--shard K/N) together\n"
         "into the report one machine would have written: the same runs, failure groups, first\n"
         "seeds and summary. Localization sections are not merged. See docs/scale-out.md.\n"
         "\n"
         "  --json FILE  write the merged JSON report (schema ctrlsched-run/1)\n"
         "  --quiet      print only the failures\n"
         "\n"
         "Exit status: 0 no failure, 1 some seed failed, 2 the reports are not the shards of one run.\n";
}

}  // namespace ctrlsched::driver

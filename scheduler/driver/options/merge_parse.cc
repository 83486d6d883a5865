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
    } else if (arg == "--json" || arg.starts_with("--json=") || arg == "--into" || arg.starts_with("--into=")) {
      const bool json = arg.starts_with("--json");
      const std::string name = json ? "--json" : "--into";
      std::string value;
      if (arg == name) {
        if (i + 1 >= args.size()) usage_error("option '" + name + "' needs a value (" + (json ? "FILE" : "STORE") + ")");
        value = args[++i];
      } else {
        value = arg.substr(name.size() + 1);
      }
      if (value.empty()) usage_error(name + " needs a non-empty value");
      std::optional<std::string>& slot = json ? cl.json : cl.into;
      if (slot) usage_error("merge: " + name + " given twice");
      slot = value;
    } else if (arg == "--quiet") {
      cl.quiet = true;
    } else if (arg == "--help" || arg == "-h") {
      cl.help = true;
    } else {
      usage_error("unknown option '" + arg + "' for 'ctrlsched merge' (it takes --json FILE, --quiet and --into STORE)");
    }
  }
  if (cl.help) return cl;
  if (cl.into) {
    if (cl.json || cl.quiet) {
      usage_error("merge --into copies run stores and renders nothing: use `ctrlsched report --store " + *cl.into +
                  "` for the report");
    }
    if (cl.reports.empty()) usage_error("merge --into needs the run stores to copy (ctrlsched merge --into all.db a.db b.db ...)");
  }
  if (cl.reports.empty()) usage_error("merge needs the shards' JSON reports (ctrlsched merge a.json b.json ...)");
  return cl;
}

const char* merge_help_text() {
  return "Usage: ctrlsched merge [--json FILE] [--quiet] SHARD.json...\n"
         "       ctrlsched merge --into STORE STORE...\n"
         "\n"
         "Puts the --json reports of all shards of one sharded seeds run (--shard K/N) together\n"
         "into the report one machine would have written: the same runs, failure groups, first\n"
         "seeds and summary. Localization sections are not merged. See docs/scale-out.md.\n"
         "\n"
         "  --json FILE  write the merged JSON report (schema ctrlsched-run/1)\n"
         "  --quiet      print only the failures\n"
         "\n"
         "With --into, copies every run of the given run stores (--store FILE of each shard) into\n"
         "STORE (created if missing), matching builds of the test by their build id; then\n"
         "`ctrlsched report --store STORE` and `ctrlsched localize --store STORE` work over all of them.\n"
         "\n"
         "Exit status: 0 no failure, 1 some seed failed, 2 the reports are not the shards of one run,\n"
         "7 a run store that cannot be read or written (--into: 0 when every store was copied).\n";
}

}  // namespace ctrlsched::driver

// The command line of `ctrlsched report --store FILE [--json F] [--sarif F] [--junit F] [--quiet]
// [TEST]` (docs/store.md): which store, which reports to write. Its own small grammar like merge's:
// it runs nothing, so none of the run options apply. `ctrlsched localize --store FILE ... TEST`
// takes the seeds command line instead (parse.cc), since it takes the localization options.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace ctrlsched::driver {

struct StoreReportCommandLine {
  std::string store;                  // --store FILE (required)
  std::optional<std::string> json;    // --json FILE
  std::optional<std::string> sarif;   // --sarif FILE
  std::optional<std::string> junit;   // --junit FILE
  std::optional<std::string> target;  // the test binary whose generation to report; default: the
                                      // binary of the store's latest seeds run
  bool quiet = false;
  bool help = false;
};

// `args` are the words after "report". Throws DriverError(Usage).
StoreReportCommandLine parse_store_report_command_line(std::span<const std::string> args);

const char* store_report_help_text();

}  // namespace ctrlsched::driver

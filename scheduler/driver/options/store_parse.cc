// Parsing `ctrlsched report --store ...` (see store_command_line.h).
#include "exit_codes.h"
#include "options/store_command_line.h"

namespace ctrlsched::driver {

StoreReportCommandLine parse_store_report_command_line(std::span<const std::string> args) {
  StoreReportCommandLine cl;
  std::optional<std::string> store;
  const auto value_of = [&](std::size_t& i, const std::string& name) {
    const std::string& arg = args[i];
    std::string value;
    if (arg == name) {
      if (i + 1 >= args.size()) usage_error("option '" + name + "' needs a value (FILE)");
      value = args[++i];
    } else {
      value = arg.substr(name.size() + 1);
    }
    if (value.empty()) usage_error(name + " needs a non-empty value");
    return value;
  };
  const auto once = [](std::optional<std::string>& slot, const std::string& name, std::string value) {
    if (slot) usage_error("report: " + name + " given twice");
    slot = std::move(value);
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    bool matched = false;
    for (auto [name, slot] : {std::pair{"--store", &store}, std::pair{"--json", &cl.json}, std::pair{"--sarif", &cl.sarif},
                              std::pair{"--junit", &cl.junit}}) {
      const std::string n = name;
      if (arg == n || arg.starts_with(n + "=")) {
        once(*slot, n, value_of(i, n));
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (arg == "--quiet") {
      cl.quiet = true;
    } else if (arg == "--help" || arg == "-h") {
      cl.help = true;
    } else if (!arg.starts_with("-") && !cl.target) {
      cl.target = arg;
    } else {
      usage_error("unknown argument '" + arg + "' for 'ctrlsched report' (see ctrlsched report --help)");
    }
  }
  if (!cl.help && !store) usage_error("report needs --store FILE (ctrlsched report --store runs.db --json report.json)");
  if (store) cl.store = *store;
  return cl;
}

const char* store_report_help_text() {
  return "Usage: ctrlsched report --store FILE [--json F] [--sarif F] [--junit F] [--quiet] [TEST]\n"
         "\n"
         "Renders the report of the runs kept in a run store (--store of a seeds run) without\n"
         "running anything: the summary, and the JSON, SARIF and JUnit files a seeds run writes.\n"
         "TEST picks the build whose runs to report (default: the binary of the latest seeds run).\n"
         "See docs/store.md.\n"
         "\n"
         "Exit status: 0 no stored run failed, 1 some did, 2 usage, 7 not a ctrlsched run store.\n";
}

}  // namespace ctrlsched::driver

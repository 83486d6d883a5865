// Fuzz target: the option parser (scheduler/driver/options: parse.cc and rules.cc), i.e. every
// argument list a user can type after `ctrlsched`. The input is split at NUL bytes into
// arguments (as in /proc/<pid>/cmdline), so an argument may hold any other byte, newlines too.
//
// Properties beyond "no crash, no leak, no undefined behaviour":
//  - the only exception is DriverError with the usage code (2) and a non-empty reason;
//  - an accepted command line (not --help/--version) describes a spec whose handle, with the
//    seed it would use, parses back to the same spec (no value silently truncated on the way);
//    for the portfolio, the spec of one of its strategies with the same base options.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "exit_codes.h"
#include "fuzz_check.h"
#include "options/command_line.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args;
  while (!text.empty()) {
    std::size_t end = text.find('\0');
    args.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  namespace drv = ctrlsched::driver;
  drv::CommandLine command_line;
  try {
    command_line = drv::parse_command_line(args);
  } catch (const drv::DriverError& error) {
    FUZZ_CHECK(error.code() == drv::ExitCode::Usage);
    std::string_view message = error.what();
    FUZZ_CHECK(!message.empty());
    return 0;
  }
  if (command_line.options.help || command_line.options.version) return 0;
  ctrlsched::RunSpec spec = drv::spec_from_options(command_line.options);
  if (command_line.options.seed) spec.seed = *command_line.options.seed;
  // What the seeds run fills in before any handle exists: the portfolio (the default) resolves every
  // seed to a concrete strategy with the same base options (runs/portfolio.h), so the base is
  // checked through one of them; PCT's k and SURW's estimates come from the calibration.
  if (spec.strategy == ctrlsched::StrategyKind::Portfolio) spec.strategy = ctrlsched::StrategyKind::Random;
  if (spec.strategy == ctrlsched::StrategyKind::Pct && spec.pct_steps == 0) spec.pct_steps = 1;
  if (spec.strategy == ctrlsched::StrategyKind::Surw && spec.surw_events.empty()) spec.surw_events = {1};
  std::optional<ctrlsched::RunSpec> again = ctrlsched::parse_handle(ctrlsched::to_handle(spec));
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*again == spec);
  return 0;
}

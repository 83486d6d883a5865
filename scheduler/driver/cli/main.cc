// cli/ — the `ctrlsched` command itself: the entry point, --help and --version, the signal
// handlers, and the one place where errors become a "ctrlsched: <what>" line and an exit code.
//
// Owns: main.cc (parse, dispatch to a mode, map every error to exit_codes.h: never a stack trace,
// never an uncaught exception), help.h (--help and docs/cli.md's table from options/options.def),
// signals.h (Ctrl-C, SIGTERM, SIGHUP).
// May call: options/, modes/, runs/stop_request.h, runs/run_record_region.h (the spin budget). Nothing below calls cli/.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "cli/error_line.h"
#include "cli/help.h"
#include "cli/signals.h"
#include "exit_codes.h"
#include "modes/modes.h"
#include "options/command_line.h"
#include "runs/run_record_region.h"
#include "runs/stop_request.h"

#ifndef CTRLSCHED_VERSION
#define CTRLSCHED_VERSION "unknown"
#endif

namespace {

using namespace ctrlsched::driver;

// A closed stdin/stdout/stderr would let a memfd take descriptor 0-2 and then be clobbered in
// the child by the /dev/null and capture redirections.
void ensure_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1) continue;
    const int null_fd = ::open("/dev/null", O_RDWR);
    if (null_fd >= 0 && null_fd != fd) {
      ::dup2(null_fd, fd);
      ::close(null_fd);
    }
  }
}

int report(ExitCode code, const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "ctrlsched: %s\n", one_line(message).c_str());
  if (code == ExitCode::Usage) std::fprintf(stderr, "Try 'ctrlsched --help'.\n");
  return to_int(code);
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "merge") {  // runs nothing: its own small grammar
    const MergeCommandLine merge = parse_merge_command_line(std::span(args).subspan(1));
    if (merge.help) {
      std::fputs(merge_help_text(), stdout);
      return to_int(ExitCode::Ok);
    }
    return to_int(run_merge(merge));
  }
  if (!args.empty() && args[0] == "report") {  // the reports of a run store: runs nothing
    const StoreReportCommandLine report = parse_store_report_command_line(std::span(args).subspan(1));
    if (report.help) {
      std::fputs(store_report_help_text(), stdout);
      return to_int(ExitCode::Ok);
    }
    return to_int(run_store_report(report));
  }
  if (!args.empty() && args[0] == "localize") {  // --localize over a run store (docs/store.md)
    // The localization options apply as with --localize, which the command implies.
    std::vector<std::string> words{"--localize"};
    words.insert(words.end(), args.begin() + 1, args.end());
    const CommandLine localize = parse_command_line(words);
    install_interrupt_handlers();
    return to_int(run_store_localize(localize));
  }
  const CommandLine command_line = parse_command_line(args);
  if (command_line.options.help) {
    std::fputs(help_text().c_str(), stdout);
    return to_int(ExitCode::Ok);
  }
  if (command_line.options.version) {
    std::printf("ctrlsched %s\n", CTRLSCHED_VERSION);
    return to_int(ExitCode::Ok);
  }
  install_interrupt_handlers();
  set_spin_budget_ms(command_line.options.spin_budget.value_or(ctrlsched::kDefaultSpinBudgetUs / 1000));
  ExitCode code = ExitCode::Ok;
  switch (command_line.mode) {
    case Mode::Seeds:
      code = *command_line.options.strategy == ctrlsched::StrategyKind::Dfs ? run_dfs(command_line) : run_seeds(command_line);
      break;
    case Mode::Replay: code = run_replay(command_line); break;
    case Mode::Trace: code = run_trace(command_line); break;
    case Mode::Shrink: code = run_shrink(command_line); break;
  }
  return to_int(code);
}

}  // namespace

int main(int argc, char** argv) {
  ensure_standard_descriptors();
  try {
    return run(argc, argv);
  } catch (const Interrupted&) {
    std::fflush(stdout);
    die_of_interrupt();
  } catch (const DriverError& e) {
    return report(e.code(), e.what());
  } catch (const std::exception& e) {
    return report(ExitCode::Internal, std::string("internal error: ") + e.what());
  } catch (...) {
    return report(ExitCode::Internal, "internal error (unknown exception)");
  }
}

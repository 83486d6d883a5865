// options/ — what a user can ask of `ctrlsched`: the option table and the parsed command line.
//
// Owns: options.def (every option declared once: name, kind, default, scope, help), the parsed
// value below (mode, options, target, the test's arguments), the parser (parse.cc), the scope
// rules and combinations (rules.cc), and the RunSpec the options describe.
// May call: the policy core's value types and exit_codes.h. Nothing else of the driver: the modes
// read a CommandLine, and cli/ renders --help from the same table.
//
// Parsing is pure (no file system, no environment) so it is unit-tested; every mistake becomes a
// DriverError(ExitCode::Usage) with a one-line reason. Options come before the target: the first
// argument that is not an option (or the one after "--") is the test program and everything after
// it belongs to the test.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/run_spec.h"

namespace ctrlsched::driver {

enum class OptionKind { Flag, Count, Number, Seconds, Path, Strategy, Points, Score, Procedure, Spectra, ExitCodes };
enum class OptionScope { Seeds, Search, Replay, Spec, Trace, Common };

// Localization choices (docs/localization.md).
enum class ScoreKind { Jaccard, Tarantula, Ochiai };
enum class LoconProcedure { Auto, I, II, III };
enum class SpectraLevel { None, Level1, Level2 };

template <OptionKind> struct OptionValue;
template <> struct OptionValue<OptionKind::Flag> { using type = bool; };
template <> struct OptionValue<OptionKind::Count> { using type = std::optional<std::uint64_t>; };
template <> struct OptionValue<OptionKind::Number> { using type = std::optional<std::uint64_t>; };
template <> struct OptionValue<OptionKind::Seconds> { using type = std::optional<double>; };
template <> struct OptionValue<OptionKind::Path> { using type = std::optional<std::string>; };
template <> struct OptionValue<OptionKind::Strategy> { using type = std::optional<StrategyKind>; };
template <> struct OptionValue<OptionKind::Points> { using type = std::optional<PointsMode>; };
template <> struct OptionValue<OptionKind::Score> { using type = std::optional<ScoreKind>; };
template <> struct OptionValue<OptionKind::Procedure> { using type = std::optional<LoconProcedure>; };
template <> struct OptionValue<OptionKind::Spectra> { using type = std::optional<SpectraLevel>; };
// Exit statuses 0-255, sorted, without repeats.
template <> struct OptionValue<OptionKind::ExitCodes> { using type = std::optional<std::vector<int>>; };

// One field per option; options with a default in the table always hold a value after parsing.
struct Options {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) \
  OptionValue<OptionKind::kind>::type id{};
#include "options/options.def"
#undef CTRLSCHED_OPTION
};

// Which options were written on the command line (as opposed to defaulted).
struct OptionsGiven {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) bool id = false;
#include "options/options.def"
#undef CTRLSCHED_OPTION
};

// One row of options.def, for help text, docs checks and tests.
struct OptionInfo {
  const char* long_name;
  char short_name;
  const char* metavar;
  OptionKind kind;
  const char* default_text;
  OptionScope scope;
  const char* help;
};
std::span<const OptionInfo> option_table();

enum class Mode { Seeds, Replay, Trace, Shrink };

struct CommandLine {
  Mode mode = Mode::Seeds;
  Options options;
  OptionsGiven given;
  std::optional<std::string> handle;  // replay/trace/shrink <handle>
  std::string target;                 // as written by the user
  std::vector<std::string> args;      // the test's own arguments
};

// `args` excludes argv[0]. Throws DriverError(Usage). With --help or --version the target may
// be missing and nothing else is validated; `trace --dump FILE` takes no target.
CommandLine parse_command_line(std::span<const std::string> args);

// Without --strategy, --depth or --pct-steps select pct and --preemption-bound selects random
// instead of the portfolio (rules.cc); parse_command_line calls it before validating.
void imply_strategy(CommandLine& command_line);

// Scope rules and option combinations (rules.cc); parse_command_line calls it.
void validate_command_line(const CommandLine& command_line);

// The spec the options describe (seed 0, no hash). pct_steps stays 0 when --pct-steps was not
// given: the caller calibrates.
RunSpec spec_from_options(const Options& options);

}  // namespace ctrlsched::driver

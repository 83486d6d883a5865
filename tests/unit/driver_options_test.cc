// ctrlsched's command line: defaults from options.def, both value spellings, where the target
// starts, replay forms, and a one-line usage error (exit code 2) for every mistake.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/help.h"
#include "driver_test_support.h"
#include "exit_codes.h"
#include "options/command_line.h"

using namespace ctrlsched::driver;
using ctrlsched::PointsMode;
using ctrlsched::StrategyKind;
using ctrlsched::driver::testing::parse;

namespace {

// The usage error message for `args`, which must be one line (fails the test if parsing succeeds).
std::string usage_line(std::vector<std::string> args) {
  try {
    parse_command_line(args);
  } catch (const DriverError& e) {
    CHECK(e.code() == ExitCode::Usage);
    const std::string message = e.what();
    CHECK(message.find('\n') == std::string::npos);
    return message;
  }
  FAIL("no usage error for this command line");
  return {};
}

}  // namespace

TEST_CASE("defaults come from the option table and match the core's constants") {
  const CommandLine cl = parse({"./t"});
  CHECK(cl.mode == Mode::Seeds);
  CHECK(*cl.options.seeds == 1000);
  CHECK(*cl.options.seed_start == 0);
  CHECK(*cl.options.strategy == StrategyKind::Portfolio);
  CHECK(*cl.options.depth == ctrlsched::kDefaultPctDepth);
  CHECK(*cl.options.max_steps == ctrlsched::kDefaultMaxSteps);
  CHECK(*cl.options.points == PointsMode::Auto);
  CHECK(*cl.options.timeout == 10.0);
  CHECK(*cl.options.save_schedules == ".ctrlsched/schedules");
  CHECK_FALSE(cl.options.pct_steps.has_value());
  CHECK_FALSE(cl.options.jobs.has_value());
  CHECK_FALSE(cl.options.stop_after.has_value());
  CHECK_FALSE(cl.options.quiet);
  CHECK_FALSE(cl.given.seeds);
}

TEST_CASE("values as '--opt value', '--opt=value', '-j N' and '-jN'") {
  const CommandLine a = parse({"--seeds", "50", "--timeout=0.25", "-j", "3", "--strategy=random",
                               "--preemption-bound", "2", "./t"});
  CHECK(*a.options.seeds == 50);
  CHECK(a.given.seeds);
  CHECK(*a.options.timeout == 0.25);
  CHECK(*a.options.jobs == 3);
  CHECK(*a.options.strategy == StrategyKind::Random);
  CHECK(*a.options.preemption_bound == 2);
  const CommandLine b = parse({"-j7", "--points", "sync", "--spurious-wakeups", "./t"});
  CHECK(*b.options.jobs == 7);
  CHECK(*b.options.points == PointsMode::Sync);
  CHECK(b.options.spurious_wakeups);
}

TEST_CASE("the target is the first non-option; everything after it belongs to the test") {
  const CommandLine cl = parse({"--quiet", "./t", "--seeds", "5", "-j", "x"});
  CHECK(cl.target == "./t");
  CHECK(cl.args == std::vector<std::string>{"--seeds", "5", "-j", "x"});
  CHECK(*cl.options.seeds == 1000);
  const CommandLine dashed = parse({"--seeds", "2", "--", "--weird-name", "a"});
  CHECK(dashed.target == "--weird-name");
  CHECK(dashed.args == std::vector<std::string>{"a"});
}

TEST_CASE("replay takes a handle, --seed or --schedule") {
  const CommandLine h = parse({"replay", "17:pct:d3:k4@0123456789abcdef", "./t", "x"});
  CHECK(h.mode == Mode::Replay);
  CHECK(*h.handle == "17:pct:d3:k4@0123456789abcdef");
  CHECK(h.target == "./t");
  CHECK(h.args == std::vector<std::string>{"x"});
  const CommandLine s = parse({"replay", "--seed", "9", "--depth", "2", "./t"});
  CHECK_FALSE(s.handle.has_value());
  CHECK(*s.options.seed == 9);
  CHECK(s.target == "./t");
  const CommandLine f = parse({"replay", "--schedule", "a.sched", "--save-schedule=b.sched", "./t"});
  CHECK(*f.options.schedule == "a.sched");
  CHECK(*f.options.save_schedule == "b.sched");
  CHECK(f.target == "./t");
}

TEST_CASE("spec_from_options builds the run spec; pct steps stay 0 for calibration") {
  const auto spec = spec_from_options(parse({"--depth", "4", "--max-steps", "77", "./t"}).options);
  CHECK(spec.strategy == StrategyKind::Pct);
  CHECK(spec.pct_depth == 4);
  CHECK(spec.pct_steps == 0);
  CHECK(spec.max_steps == 77);
  CHECK_FALSE(spec.preemption_bound.has_value());
  const auto random = spec_from_options(parse({"--strategy", "random", "--preemption-bound", "0", "./t"}).options);
  CHECK(random.strategy == StrategyKind::Random);
  CHECK(random.preemption_bound == std::optional<std::uint32_t>(0));
}

TEST_CASE("without --strategy: the portfolio, or pct / random when their options are given") {
  CHECK(*parse({"./t"}).options.strategy == StrategyKind::Portfolio);
  CHECK(*parse({"--depth", "4", "./t"}).options.strategy == StrategyKind::Pct);
  CHECK(*parse({"--pct-steps", "40", "./t"}).options.strategy == StrategyKind::Pct);
  CHECK(*parse({"--preemption-bound", "1", "./t"}).options.strategy == StrategyKind::Random);
  CHECK(*parse({"--strategy", "surw", "./t"}).options.strategy == StrategyKind::Surw);
  CHECK(*parse({"--strategy", "pos", "./t"}).options.strategy == StrategyKind::Pos);
}

TEST_CASE("--surw-uniform: a percent for surw only") {
  CHECK(spec_from_options(parse({"--strategy", "surw", "--surw-uniform", "50", "./t"}).options).surw_uniform_percent == 50);
  CHECK(spec_from_options(parse({"--strategy", "surw", "./t"}).options).surw_uniform_percent == 0);
  CHECK(usage_line({"--surw-uniform", "50", "./t"}) == "--surw-uniform only applies to --strategy surw");
  CHECK(usage_line({"--strategy", "pos", "--surw-uniform", "50", "./t"}) == "--surw-uniform only applies to --strategy surw");
  CHECK(usage_line({"--strategy", "surw", "--surw-uniform", "101", "./t"}) ==
        "--surw-uniform is a percent: at most 100");
}

TEST_CASE("bad command lines are one-line usage errors") {
  CHECK(usage_line({}) == "missing the test program to run");
  CHECK(usage_line({"--seeds", "abc", "./t"}) == "--seeds expects a whole number, got 'abc'");
  CHECK(usage_line({"--seeds", "-5", "./t"}) == "--seeds expects a non-negative whole number, got '-5'");
  CHECK(usage_line({"--seeds", "0", "./t"}) == "--seeds must be at least 1");
  CHECK(usage_line({"--seeds=5x", "./t"}) == "--seeds expects a whole number, got '5x'");
  CHECK(usage_line({"--seeds", "+5", "./t"}) == "--seeds expects a whole number, got '+5'");
  CHECK(usage_line({"--seeds"}) == "option '--seeds' needs a value (N)");
  CHECK(usage_line({"--strategy", "bfs", "./t"}) == "unknown strategy 'bfs' (expected portfolio, random, pct, pos, surw or dfs)");
  CHECK(usage_line({"--strategy", "dfs", "--seeds", "5", "./t"}) == "--seeds does not apply to --strategy dfs");
  CHECK(usage_line({"--max-schedules", "5", "./t"}) == "--max-schedules only applies to --strategy dfs");
  CHECK(usage_line({"replay", "--seed", "1", "--strategy", "dfs", "./t"}) ==
        "--strategy dfs explores many schedules; replay one of them by the handle or schedule file it reported");
  CHECK(usage_line({"--frobnicate", "./t"}) == "unknown option '--frobnicate'");
  CHECK(usage_line({"-x", "./t"}) == "unknown option '-x'");
  CHECK(usage_line({"--quiet=yes", "./t"}) == "option '--quiet' takes no value");
  CHECK(usage_line({"--timeout", "0", "./t"}) == "--timeout must be more than 0 seconds");
  CHECK(usage_line({"--timeout", "nan", "./t"}) == "--timeout expects a number of seconds, got 'nan'");
  CHECK(usage_line({"--points", "all", "./t"}) == "--points expects sync, accesses or auto, got 'all'");
  CHECK(usage_line({"--strategy", "pct", "--preemption-bound", "2", "./t"}) == "--preemption-bound only applies to --strategy random or dfs");
  CHECK(usage_line({"--strategy", "pos", "--depth", "2", "./t"}) == "--depth only applies to --strategy pct");
  // Without --strategy, --depth selects pct (imply_strategy), which takes no preemption bound.
  CHECK(usage_line({"--depth", "2", "--preemption-bound", "2", "./t"}) == "--preemption-bound only applies to --strategy random or dfs");
  CHECK(usage_line({"--strategy", "random", "--pct-steps", "9", "./t"}) ==
        "--pct-steps only applies to --strategy pct");
  CHECK(usage_line({"--depth", "1001", "./t"}) == "--depth must be at most 1000");
  CHECK(usage_line({"--seed", "3", "./t"}) == "--seed is only valid with 'ctrlsched replay' or 'ctrlsched trace'");
  CHECK(usage_line({"--seeds", "99999999999999999999999", "./t"}) ==
        "--seeds value '99999999999999999999999' is too large");
  CHECK(usage_line({"--seed-start", "18446744073709551615", "--seeds", "2", "./t"}).find("largest seed") != std::string::npos);
}

TEST_CASE("replay misuse is a usage error") {
  CHECK(usage_line({"replay", "./t"}).find("'./t' is not a handle") != std::string::npos);
  CHECK(usage_line({"replay", "1:pct:d3:k4"}) == "missing the test program to run");
  CHECK(usage_line({"replay", "--seed", "1", "--schedule", "f", "./t"}) == "give only one of --seed and --schedule");
  CHECK(usage_line({"replay", "1:pct:d3:k4", "--depth", "2", "./t"}) ==
        "--depth cannot be combined with a handle: it already fixes the run");
  CHECK(usage_line({"replay", "--schedule", "f", "--strategy", "random", "./t"}) ==
        "--strategy cannot be combined with --schedule: it already fixes the run");
  CHECK(usage_line({"replay", "--seed", "1", "-j", "2", "./t"}) == "--jobs cannot be used with 'ctrlsched replay'");
  CHECK(usage_line({"replay", "--seed", "1", "--seeds", "2", "./t"}) ==
        "--seeds cannot be used with 'ctrlsched replay'");
}

TEST_CASE("--help and --version need no target") {
  CHECK(parse({"--help"}).options.help);
  CHECK(parse({"-h"}).options.help);
  CHECK(parse({"--version"}).options.version);
  const std::string help = help_text();
  for (const OptionInfo& option : option_table()) {
    CHECK(help.find(std::string("--") + option.long_name) != std::string::npos);
    CHECK(help.find(option.help) != std::string::npos);
  }
}

TEST_CASE("localization options: defaults, values and the --localize requirement") {
  const CommandLine plain = parse({"./t"});
  CHECK_FALSE(plain.options.localize);
  CHECK(*plain.options.window == 5);
  CHECK(*plain.options.score == ScoreKind::Jaccard);
  CHECK(*plain.options.procedure == LoconProcedure::Auto);
  CHECK(*plain.options.spectra == SpectraLevel::None);
  CHECK(*plain.options.top == 3);
  CHECK(*plain.options.confirm_seeds == 20);

  const CommandLine cl = parse({"--localize", "--window", "7", "--score=ochiai", "--procedure", "II",
                                "--spectra", "level2", "--failure-site", "log_error,die", "./t"});
  CHECK(*cl.options.window == 7);
  CHECK(*cl.options.score == ScoreKind::Ochiai);
  CHECK(*cl.options.procedure == LoconProcedure::II);
  CHECK(*cl.options.spectra == SpectraLevel::Level2);
  CHECK(*cl.options.failure_site == "log_error,die");

  CHECK(usage_line({"--window", "4", "./t"}).find("only apply with --localize") != std::string::npos);
  CHECK(usage_line({"--localize", "--window", "1", "./t"}).find("between 2 and 16") != std::string::npos);
  CHECK(usage_line({"--localize", "--window", "17", "./t"}).find("between 2 and 16") != std::string::npos);
  CHECK(usage_line({"--localize", "--score", "dice", "./t"}).find("jaccard, tarantula or ochiai") != std::string::npos);
  CHECK(usage_line({"--localize", "--procedure", "IV", "./t"}).find("auto, I, II or III") != std::string::npos);
  CHECK(usage_line({"--localize", "--spectra", "level3", "./t"}).find("none, level1 or level2") != std::string::npos);
  CHECK(usage_line({"--localize", "--failure-site", ",", "./t"}).find("at least one function") != std::string::npos);
  CHECK(usage_line({"replay", "--seed", "1", "--localize", "./t"}).find("cannot be used with") != std::string::npos);
}

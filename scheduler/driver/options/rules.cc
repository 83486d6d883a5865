// The rules a parsed command line must follow: which options each mode accepts, which
// combinations contradict each other, and the limits the rest of the system relies on. Split from
// parse.cc (which turns text into values) so the rules read as one list.
#include <limits>

#include "exit_codes.h"
#include "options/command_line.h"
#include "options/shard.h"

namespace ctrlsched::driver {
namespace {

// Must match run_spec.cc, which rejects deeper PCT handles.
constexpr std::uint64_t kMaxDepth = 1000;
constexpr std::uint64_t kMaxJobs = 1024;
// Must match the shim's Falcon collector, which keeps windows of at most this many slots.
constexpr std::uint64_t kMaxFalconWindow = 16;

std::string dashed_option(std::string_view name) { return "--" + std::string(name); }

bool is_given(const OptionsGiven& given, std::size_t index) {
  const bool flags[] = {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) given.id,
#include "options/options.def"
#undef CTRLSCHED_OPTION
  };
  return flags[index];
}

// `trace --dump FILE` renders a file and runs nothing: only the dump's own options apply.
void validate_dump(const CommandLine& cl) {
  for (std::size_t i = 0; i < option_table().size(); ++i) {
    if (is_given(cl.given, i) && option_table()[i].scope != OptionScope::Trace) {
      usage_error(dashed_option(option_table()[i].long_name) +
                  " cannot be combined with --dump (it renders a trace file and runs nothing)");
    }
  }
  if (cl.handle || !cl.target.empty()) {
    usage_error("--dump renders a trace file and runs nothing: give no handle or test program ('" +
                (cl.handle ? *cl.handle : cl.target) + "')");
  }
}

// `--strategy dfs` is an exploration of its own (docs/strategies.md "dfs"): seeds, sharding and
// the localization do not apply, and its two options need it.
void check_dfs_rules(const CommandLine& cl) {
  const Options& o = cl.options;
  const OptionsGiven& g = cl.given;
  const bool dfs = *o.strategy == StrategyKind::Dfs;
  if (!dfs) {
    if (g.max_schedules || g.no_reduction || g.sleep_sets) {
      usage_error(std::string(g.max_schedules ? "--max-schedules" : g.no_reduction ? "--no-reduction" : "--sleep-sets") +
                  " only applies to --strategy dfs");
    }
    return;
  }
  if (g.no_reduction && g.sleep_sets) usage_error("--no-reduction and --sleep-sets exclude each other");
  if (cl.mode != Mode::Seeds) {
    usage_error("--strategy dfs explores many schedules; replay one of them by the handle or schedule file it reported");
  }
  const std::pair<bool, const char*> excluded[] = {
      {g.seeds, "--seeds"},       {g.seed_start, "--seed-start"}, {g.shard, "--shard"},
      {o.localize, "--localize"}, {o.access_pairs, "--access-pairs"}, {g.sarif, "--sarif"},
      {g.junit, "--junit"},       {o.spurious_wakeups, "--spurious-wakeups"},
      {g.depth, "--depth"},       {g.pct_steps, "--pct-steps"},
  };
  for (const auto& [given, name] : excluded) {
    if (given) usage_error(std::string(name) + " does not apply to --strategy dfs");
  }
  if (o.preemption_bound && *o.preemption_bound > 64) usage_error("--preemption-bound must be at most 64 with --strategy dfs");
}

}  // namespace

// Scope rules and option combinations, checked once the whole command line is known.
void validate_command_line(const CommandLine& cl) {
  const Options& o = cl.options;
  const OptionsGiven& g = cl.given;
  if (cl.mode == Mode::Trace && g.dump) {
    validate_dump(cl);
    return;
  }
  const bool fixed_run = cl.handle.has_value() || g.schedule;
  const char* command = cl.mode == Mode::Trace ? "trace" : cl.mode == Mode::Shrink ? "shrink" : "replay";
  for (std::size_t i = 0; i < option_table().size(); ++i) {
    if (!is_given(g, i)) continue;
    const std::string name = dashed_option(option_table()[i].long_name);
    switch (option_table()[i].scope) {
      case OptionScope::Seeds:
        if (cl.mode != Mode::Seeds) usage_error(name + " cannot be used with 'ctrlsched " + command + "'");
        break;
      case OptionScope::Search:
        if (cl.mode != Mode::Seeds && cl.mode != Mode::Shrink) {
          usage_error(name + " cannot be used with 'ctrlsched " + command + "'");
        }
        break;
      case OptionScope::Replay:
        if (cl.mode == Mode::Seeds) {
          usage_error(name + " is only valid with 'ctrlsched replay' or 'ctrlsched trace'");
        }
        break;
      case OptionScope::Spec:
        if (cl.mode != Mode::Seeds && fixed_run) {
          usage_error(name + " cannot be combined with " +
                      (g.schedule ? "--schedule" : "a handle") + ": it already fixes the run");
        }
        break;
      case OptionScope::Trace:
        if (cl.mode != Mode::Trace) usage_error(name + " is only valid with 'ctrlsched trace'");
        break;
      case OptionScope::Common:
        break;
    }
  }
  const std::string needs = std::string(command) +
                            " needs a handle, --seed S or --schedule FILE before the test program" +
                            (cl.mode == Mode::Trace ? " (or --dump FILE)" : "");
  if (cl.mode != Mode::Seeds) {
    if (g.seed && g.schedule) usage_error("give only one of --seed and --schedule");
    if (!cl.handle && !g.seed && !g.schedule) usage_error(needs);
  }
  if (cl.target.empty()) {
    if (cl.handle && (cl.handle->empty() || cl.handle->find('/') != std::string::npos ||
                      cl.handle->find(':') == std::string::npos)) {
      usage_error(needs + " ('" + *cl.handle + "' is not a handle)");
    }
    usage_error("missing the test program to run");
  }
  const bool localize_detail = g.window || g.score || g.procedure || g.spectra || g.failure_site ||
                               g.max_distance || g.top || g.confirm_seeds || g.no_confirm;
  if (localize_detail && !o.localize) {
    usage_error("--window, --score, --procedure, --spectra, --failure-site, --max-distance, --top, "
                "--confirm-seeds and --no-confirm only apply with --localize");
  }
  if (*o.window < 2 || *o.window > kMaxFalconWindow) {
    usage_error("--window must be between 2 and " + std::to_string(kMaxFalconWindow));
  }
  if (o.failure_site && o.failure_site->find_first_not_of(",") == std::string::npos) {
    usage_error("--failure-site needs at least one function name");
  }
  // Without --strategy, --depth/--pct-steps name pct and --preemption-bound random
  // (imply_strategy); given with another strategy they contradict it.
  const StrategyKind strategy = *o.strategy;
  if (strategy != StrategyKind::Random && strategy != StrategyKind::Dfs && g.preemption_bound) {
    usage_error("--preemption-bound only applies to --strategy random or dfs");
  }
  check_dfs_rules(cl);
  if (strategy != StrategyKind::Pct && (g.depth || g.pct_steps)) {
    usage_error(std::string(g.depth ? "--depth" : "--pct-steps") + " only applies to --strategy pct");
  }
  if (*o.depth > kMaxDepth) usage_error("--depth must be at most " + std::to_string(kMaxDepth));
  if (strategy != StrategyKind::Surw && g.surw_uniform) usage_error("--surw-uniform only applies to --strategy surw");
  if (*o.surw_uniform > kMaxSurwUniformPercent) {
    usage_error("--surw-uniform is a percent: at most " + std::to_string(kMaxSurwUniformPercent));
  }
  if (o.preemption_bound && *o.preemption_bound > std::numeric_limits<std::uint32_t>::max()) {
    usage_error("--preemption-bound is too large");
  }
  if (o.shard) {
    if (*o.shard != "auto") parse_shard(*o.shard, "--shard");  // auto is resolved when the seeds start
    if (o.stop_after) {
      usage_error("--stop-after cannot be combined with --shard: where a shard stops depends on the failures of the others");
    }
  }
  if (o.jobs && *o.jobs > kMaxJobs) usage_error("--jobs must be at most " + std::to_string(kMaxJobs));
  if (*o.seed_start > std::numeric_limits<std::uint64_t>::max() - (*o.seeds - 1)) {
    usage_error("--seed-start + --seeds goes past the largest seed (2^64 - 1)");
  }
}

void imply_strategy(CommandLine& cl) {
  if (cl.given.strategy) return;
  if (cl.given.depth || cl.given.pct_steps) cl.options.strategy = StrategyKind::Pct;
  else if (cl.given.preemption_bound) cl.options.strategy = StrategyKind::Random;
}

RunSpec spec_from_options(const Options& options) {
  RunSpec spec;
  spec.strategy = *options.strategy;
  spec.pct_depth = static_cast<std::uint32_t>(*options.depth);
  spec.pct_steps = options.pct_steps.value_or(0);
  if (spec.strategy == StrategyKind::Random && options.preemption_bound) {
    spec.preemption_bound = static_cast<std::uint32_t>(*options.preemption_bound);
  }
  if (spec.strategy == StrategyKind::Surw) spec.surw_uniform_percent = static_cast<std::uint32_t>(*options.surw_uniform);
  spec.spurious_wakeups = options.spurious_wakeups;
  spec.points = *options.points;
  spec.max_steps = *options.max_steps;
  return spec;
}

}  // namespace ctrlsched::driver

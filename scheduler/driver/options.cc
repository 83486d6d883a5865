// Command-line parsing, --help and the Markdown option table, all generated from options.def.
//
// Values are parsed strictly (whole numbers only, no sign, no trailing text): a typo must be an
// error, never a silently different run. Defaults from the table go through the same parser.
#include "options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

enum class OptionId : std::size_t {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) id,
#include "options.def"
#undef CTRLSCHED_OPTION
};

constexpr OptionInfo kOptions[] = {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) \
  {long_name, short_name, metavar, OptionKind::kind, def, OptionScope::scope, help},
#include "options.def"
#undef CTRLSCHED_OPTION
};

// Must match run_spec.cc, which rejects deeper PCT handles.
constexpr std::uint64_t kMaxDepth = 1000;
constexpr std::uint64_t kMaxJobs = 1024;
constexpr double kMaxSeconds = 1e7;

std::string dashed(std::string_view name) { return "--" + std::string(name); }

std::uint64_t parse_whole(std::string_view name, std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  if (error == std::errc::result_out_of_range && digits_only) {
    usage_error(dashed(name) + " value '" + std::string(text) + "' is too large");
  }
  if (!digits_only || error != std::errc{} || end != text.data() + text.size()) {
    const char* what = text.starts_with("-") ? "a non-negative whole number" : "a whole number";
    usage_error(dashed(name) + " expects " + what + ", got '" + std::string(text) + "'");
  }
  return value;
}

template <OptionKind kind>
typename OptionValue<kind>::type parse_value(std::string_view name, std::string_view text) {
  if constexpr (kind == OptionKind::Flag) {
    return true;
  } else if constexpr (kind == OptionKind::Number) {
    return parse_whole(name, text);
  } else if constexpr (kind == OptionKind::Count) {
    const std::uint64_t value = parse_whole(name, text);
    if (value == 0) usage_error(dashed(name) + " must be at least 1");
    return value;
  } else if constexpr (kind == OptionKind::Seconds) {
    const std::string copy(text);
    char* end = nullptr;
    const double value = copy.empty() ? 0.0 : std::strtod(copy.c_str(), &end);
    if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value) ||
        copy.find_first_of("xXnN") != std::string::npos) {  // no hex floats, nan or inf
      usage_error(dashed(name) + " expects a number of seconds, got '" + copy + "'");
    }
    if (value <= 0) usage_error(dashed(name) + " must be more than 0 seconds");
    if (value > kMaxSeconds) usage_error(dashed(name) + " is too large");
    return value;
  } else if constexpr (kind == OptionKind::Path) {
    if (text.empty()) usage_error(dashed(name) + " needs a non-empty value");
    return std::string(text);
  } else if constexpr (kind == OptionKind::Strategy) {
    if (text == "random") return StrategyKind::Random;
    if (text == "pct") return StrategyKind::Pct;
    usage_error("unknown strategy '" + std::string(text) + "' (expected random or pct)");
  } else {
    if (text == "sync") return PointsMode::Sync;
    if (text == "accesses") return PointsMode::Accesses;
    if (text == "auto") return PointsMode::Auto;
    usage_error(dashed(name) + " expects sync, accesses or auto, got '" + std::string(text) + "'");
  }
}

void store(Options& options, OptionId id, std::string_view text) {
  switch (id) {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) \
  case OptionId::id:                                                                 \
    options.id = parse_value<OptionKind::kind>(long_name, text);                     \
    return;
#include "options.def"
#undef CTRLSCHED_OPTION
  }
}

void mark_given(OptionsGiven& given, OptionId id) {
  switch (id) {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) \
  case OptionId::id:                                                                 \
    given.id = true;                                                                 \
    return;
#include "options.def"
#undef CTRLSCHED_OPTION
  }
}

bool is_given(const OptionsGiven& given, std::size_t index) {
  const bool flags[] = {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) given.id,
#include "options.def"
#undef CTRLSCHED_OPTION
  };
  return flags[index];
}

std::optional<std::size_t> find_long(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kOptions); ++i) {
    if (name == kOptions[i].long_name) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> find_short(char name) {
  for (std::size_t i = 0; i < std::size(kOptions); ++i) {
    if (kOptions[i].short_name != 0 && kOptions[i].short_name == name) return i;
  }
  return std::nullopt;
}

// Scope rules and option combinations, checked once the whole command line is known.
void validate(const CommandLine& cl) {
  const Options& o = cl.options;
  const OptionsGiven& g = cl.given;
  const bool fixed_run = cl.handle.has_value() || g.schedule;
  for (std::size_t i = 0; i < std::size(kOptions); ++i) {
    if (!is_given(g, i)) continue;
    const std::string name = dashed(kOptions[i].long_name);
    switch (kOptions[i].scope) {
      case OptionScope::Seeds:
        if (cl.mode == Mode::Replay) usage_error(name + " cannot be used with 'ctrlsched replay'");
        break;
      case OptionScope::Replay:
        if (cl.mode == Mode::Seeds) usage_error(name + " is only valid with 'ctrlsched replay'");
        break;
      case OptionScope::Spec:
        if (cl.mode == Mode::Replay && fixed_run) {
          usage_error(name + " cannot be combined with " +
                      (g.schedule ? "--schedule" : "a handle") + ": it already fixes the run");
        }
        break;
      case OptionScope::Common:
        break;
    }
  }
  if (cl.mode == Mode::Replay) {
    if (g.seed && g.schedule) usage_error("give only one of --seed and --schedule");
    if (!cl.handle && !g.seed && !g.schedule) {
      usage_error("replay needs a handle, --seed S or --schedule FILE before the test program");
    }
  }
  if (cl.target.empty()) {
    if (cl.handle && (cl.handle->empty() || cl.handle->find('/') != std::string::npos ||
                      cl.handle->find(':') == std::string::npos)) {
      usage_error("replay needs a handle, --seed S or --schedule FILE before the test program ('" +
                  *cl.handle + "' is not a handle)");
    }
    usage_error("missing the test program to run");
  }
  if (*o.strategy == StrategyKind::Pct && g.preemption_bound) {
    usage_error("--preemption-bound only applies to --strategy random");
  }
  if (*o.strategy == StrategyKind::Random && (g.depth || g.pct_steps)) {
    usage_error(std::string(g.depth ? "--depth" : "--pct-steps") + " only applies to --strategy pct");
  }
  if (*o.depth > kMaxDepth) usage_error("--depth must be at most " + std::to_string(kMaxDepth));
  if (o.preemption_bound && *o.preemption_bound > std::numeric_limits<std::uint32_t>::max()) {
    usage_error("--preemption-bound is too large");
  }
  if (o.jobs && *o.jobs > kMaxJobs) usage_error("--jobs must be at most " + std::to_string(kMaxJobs));
  if (*o.seed_start > std::numeric_limits<std::uint64_t>::max() - (*o.seeds - 1)) {
    usage_error("--seed-start + --seeds goes past the largest seed (2^64 - 1)");
  }
}

}  // namespace

std::span<const OptionInfo> option_table() { return kOptions; }

CommandLine parse_command_line(std::span<const std::string> args) {
  CommandLine cl;
  for (std::size_t i = 0; i < std::size(kOptions); ++i) {
    if (*kOptions[i].default_text) store(cl.options, OptionId{i}, kOptions[i].default_text);
  }
  std::size_t i = 0;
  if (!args.empty() && args[0] == "replay") {
    cl.mode = Mode::Replay;
    i = 1;
  }
  auto take_target = [&](std::size_t at) {
    if (at >= args.size()) return;
    cl.target = args[at];
    cl.args.assign(args.begin() + static_cast<std::ptrdiff_t>(at) + 1, args.end());
  };
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      take_target(i + 1);
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {  // a positional: handle (replay) or the target
      if (cl.mode == Mode::Replay && !cl.handle && !cl.given.seed && !cl.given.schedule) {
        cl.handle = arg;
        continue;
      }
      take_target(i);
      break;
    }
    std::optional<std::size_t> index;
    std::optional<std::string> inline_value;
    std::string shown = arg;
    if (arg.starts_with("--")) {
      const std::size_t eq = arg.find('=');
      const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) inline_value = arg.substr(eq + 1);
      index = find_long(name);
      shown = "--" + name;
    } else {
      index = find_short(arg[1]);
      shown = arg.substr(0, 2);
      if (arg.size() > 2) inline_value = arg.substr(2);
    }
    if (!index) usage_error("unknown option '" + shown + "'");
    const OptionInfo& info = kOptions[*index];
    std::string value;
    if (info.kind == OptionKind::Flag) {
      if (inline_value) usage_error("option '" + shown + "' takes no value");
    } else if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      usage_error("option '" + shown + "' needs a value (" + info.metavar + ")");
    }
    store(cl.options, OptionId{*index}, value);
    mark_given(cl.given, OptionId{*index});
  }
  if (cl.options.help || cl.options.version) return cl;
  validate(cl);
  return cl;
}

RunSpec spec_from_options(const Options& options) {
  RunSpec spec;
  spec.strategy = *options.strategy;
  spec.pct_depth = static_cast<std::uint32_t>(*options.depth);
  spec.pct_steps = options.pct_steps.value_or(0);
  if (spec.strategy == StrategyKind::Random && options.preemption_bound) {
    spec.preemption_bound = static_cast<std::uint32_t>(*options.preemption_bound);
  }
  spec.spurious_wakeups = options.spurious_wakeups;
  spec.points = *options.points;
  spec.max_steps = *options.max_steps;
  return spec;
}

}  // namespace ctrlsched::driver

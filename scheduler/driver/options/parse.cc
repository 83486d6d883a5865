// Command-line parsing, generated from the option table (options.def).
//
// Values are parsed strictly (whole numbers only, no sign, no trailing text): a typo must be an
// error, never a silently different run. Defaults from the table go through the same parser.
#include "options/command_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

enum class OptionId : std::size_t {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) id,
#include "options/options.def"
#undef CTRLSCHED_OPTION
};

constexpr OptionInfo kOptions[] = {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) \
  {long_name, short_name, metavar, OptionKind::kind, def, OptionScope::scope, help},
#include "options/options.def"
#undef CTRLSCHED_OPTION
};

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

// "0,6": exit statuses separated by commas, each a whole number from 0 to 255.
std::vector<int> parse_exit_codes(std::string_view name, std::string_view text) {
  std::vector<int> codes;
  std::string_view rest = text;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const bool digits_only = !item.empty() && item.size() <= 3 &&
                             item.find_first_not_of("0123456789") == std::string_view::npos;
    int code = 0;
    if (digits_only) std::from_chars(item.data(), item.data() + item.size(), code);
    if (!digits_only || code > 255) {
      usage_error(dashed(name) + " expects exit statuses from 0 to 255 separated by commas, got '" +
                  std::string(text) + "'");
    }
    codes.push_back(code);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  return codes;
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
    if (text == "dfs") return StrategyKind::Dfs;
    if (text == "pos") return StrategyKind::Pos;
    if (text == "surw") return StrategyKind::Surw;
    if (text == "portfolio") return StrategyKind::Portfolio;
    usage_error("unknown strategy '" + std::string(text) + "' (expected portfolio, random, pct, pos, surw or dfs)");
  } else if constexpr (kind == OptionKind::Score) {
    if (text == "jaccard") return ScoreKind::Jaccard;
    if (text == "tarantula") return ScoreKind::Tarantula;
    if (text == "ochiai") return ScoreKind::Ochiai;
    usage_error(dashed(name) + " expects jaccard, tarantula or ochiai, got '" + std::string(text) + "'");
  } else if constexpr (kind == OptionKind::Procedure) {
    if (text == "auto") return LoconProcedure::Auto;
    if (text == "I" || text == "1") return LoconProcedure::I;
    if (text == "II" || text == "2") return LoconProcedure::II;
    if (text == "III" || text == "3") return LoconProcedure::III;
    usage_error(dashed(name) + " expects auto, I, II or III, got '" + std::string(text) + "'");
  } else if constexpr (kind == OptionKind::Spectra) {
    if (text == "none") return SpectraLevel::None;
    if (text == "level1") return SpectraLevel::Level1;
    if (text == "level2") return SpectraLevel::Level2;
    usage_error(dashed(name) + " expects none, level1 or level2, got '" + std::string(text) + "'");
  } else if constexpr (kind == OptionKind::ExitCodes) {
    return parse_exit_codes(name, text);
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
#include "options/options.def"
#undef CTRLSCHED_OPTION
  }
}

void mark_given(OptionsGiven& given, OptionId id) {
  switch (id) {
#define CTRLSCHED_OPTION(id, long_name, short_name, metavar, kind, def, scope, help) \
  case OptionId::id:                                                                 \
    given.id = true;                                                                 \
    return;
#include "options/options.def"
#undef CTRLSCHED_OPTION
  }
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

}  // namespace

std::span<const OptionInfo> option_table() { return kOptions; }

CommandLine parse_command_line(std::span<const std::string> args) {
  CommandLine cl;
  for (std::size_t i = 0; i < std::size(kOptions); ++i) {
    if (*kOptions[i].default_text) store(cl.options, OptionId{i}, kOptions[i].default_text);
  }
  std::size_t i = 0;
  if (!args.empty() && (args[0] == "replay" || args[0] == "trace" || args[0] == "shrink")) {
    cl.mode = args[0] == "replay" ? Mode::Replay : args[0] == "trace" ? Mode::Trace : Mode::Shrink;
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
    if (arg.size() < 2 || arg[0] != '-') {  // a positional: handle (replay, trace) or the target
      if (cl.mode != Mode::Seeds && !cl.handle && !cl.given.seed && !cl.given.schedule &&
          !cl.given.dump) {
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
  imply_strategy(cl);
  validate_command_line(cl);
  return cl;
}

}  // namespace ctrlsched::driver

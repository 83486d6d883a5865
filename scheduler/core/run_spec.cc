// Run handles: the printable, self-contained name of one run ("17:random:pb2@9f3a...").
//
// A handle is what a user copies from a failure report into `ctrlsched replay`, so printing is
// canonical (optional fields only when not at their default, in the order of the grammar in
// run_spec.h) and parsing is strict: every malformed or contradictory handle is rejected with a
// one-line reason instead of silently running some other schedule. Optional fields are accepted
// in any order, each at most once. "replay" is printed for a Replay spec but is not accepted by
// parse_handle: a replay needs its schedule file, so it cannot be named by a handle alone.
#include "ctrlsched/run_spec.h"

#include <charconv>

namespace ctrlsched {
namespace {

// Real bugs have depth 1-3; a depth beyond this is a typo, and would make the strategy allocate
// and draw that many change points.
constexpr std::uint32_t kMaxPctDepth = 1000;

template <typename Number>
std::optional<Number> parse_decimal(std::string_view text) {
  if (text.empty()) return std::nullopt;
  Number value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool fail(std::string* error, std::string reason) {
  if (error) *error = std::move(reason);
  return false;
}

// "<prefix><digits>" -> the digits; nullopt if `field` has another shape.
std::optional<std::string_view> digits_after(std::string_view field, std::string_view prefix) {
  if (!field.starts_with(prefix) || field.size() == prefix.size()) return std::nullopt;
  const std::string_view digits = field.substr(prefix.size());
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return digits;
}

// Parses the fields after "<seed>:<strategy>" into `spec`, rejecting repeated and misplaced ones.
class FieldParser {
 public:
  FieldParser(RunSpec& spec, std::string* error) : spec_(spec), error_(error) {}

  bool parse(std::string_view field) {
    const bool pct = spec_.strategy == StrategyKind::Pct;
    if (field.empty()) return fail(error_, "empty field (two ':' in a row or a trailing ':')");
    if (field == "sw") {
      spec_.spurious_wakeups = true;
      return once(seen_spurious_, field);
    }
    if (field == "sync" || field == "acc") {
      spec_.points = field == "sync" ? PointsMode::Sync : PointsMode::Accesses;
      return once(seen_points_, field);
    }
    if (const auto digits = digits_after(field, "d")) {
      if (!pct) return fail(error_, "field " + quoted(field) + " is only valid for pct");
      return once(seen_depth_, field) && number(field, *digits, "depth", spec_.pct_depth);
    }
    if (const auto digits = digits_after(field, "k")) {
      if (!pct) return fail(error_, "field " + quoted(field) + " is only valid for pct");
      return once(seen_steps_, field) && number(field, *digits, "step count", spec_.pct_steps);
    }
    if (const auto digits = digits_after(field, "pb")) {
      if (spec_.strategy != StrategyKind::Random) {
        return fail(error_, "a preemption bound (" + quoted(field) + ") is only valid for random");
      }
      spec_.preemption_bound = 0;
      return once(seen_bound_, field) && number(field, *digits, "preemption bound", *spec_.preemption_bound);
    }
    if (const auto digits = digits_after(field, "m")) {
      return once(seen_max_steps_, field) && number(field, *digits, "max steps", spec_.max_steps);
    }
    if (const auto digits = digits_after(field, "u")) {
      if (spec_.strategy != StrategyKind::Surw) return fail(error_, "field " + quoted(field) + " is only valid for surw");
      return once(seen_uniform_, field) && number(field, *digits, "uniform percent", spec_.surw_uniform_percent);
    }
    if (field.starts_with("e") && field.size() > 1 && field[1] >= '0' && field[1] <= '9') {
      if (spec_.strategy != StrategyKind::Surw) return fail(error_, "field " + quoted(field) + " is only valid for surw");
      return once(seen_events_, field) && events(field);
    }
    return fail(error_, "unknown field " + quoted(field));
  }

  // Checks what no single field can: required fields and value ranges.
  bool check_complete() {
    if (spec_.max_steps == 0) return fail(error_, "max steps must be at least 1");
    if (spec_.strategy == StrategyKind::Surw && !seen_events_) {
      return fail(error_, "surw needs an events field 'e<n0>.<n1>...' (estimated events per thread)");
    }
    // u0 is the default and never printed: accepting it would give one run two handles.
    if (seen_uniform_ && (spec_.surw_uniform_percent == 0 || spec_.surw_uniform_percent > kMaxSurwUniformPercent)) {
      return fail(error_, "surw uniform percent must be 1 to " + std::to_string(kMaxSurwUniformPercent) +
                              " (omit the field for 0)");
    }
    if (spec_.strategy != StrategyKind::Pct) return true;
    if (!seen_depth_) return fail(error_, "pct needs a depth field 'd<depth>'");
    if (!seen_steps_) return fail(error_, "pct needs a step count field 'k<steps>'");
    if (spec_.pct_depth == 0) return fail(error_, "pct depth must be at least 1");
    if (spec_.pct_depth > kMaxPctDepth) {
      return fail(error_, "pct depth must be at most " + std::to_string(kMaxPctDepth));
    }
    if (spec_.pct_steps == 0) return fail(error_, "pct step count must be at least 1");
    return true;
  }

 private:
  bool once(bool& seen, std::string_view field) {
    if (seen) return fail(error_, "field " + quoted(field) + " repeats an earlier field");
    seen = true;
    return true;
  }

  template <typename Number>
  bool number(std::string_view field, std::string_view digits, const char* what, Number& out) {
    const std::optional<Number> value = parse_decimal<Number>(digits);
    if (!value) return fail(error_, std::string(what) + " out of range in field " + quoted(field));
    out = *value;
    return true;
  }

  // "e<n0>.<n1>...": one decimal count per thread, at most kMaxSurwThreads of them.
  bool events(std::string_view field) {
    std::string_view rest = field.substr(1);
    while (true) {
      const std::size_t dot = rest.find('.');
      const std::optional<std::uint32_t> count = parse_decimal<std::uint32_t>(rest.substr(0, dot));
      if (!count) return fail(error_, "bad event count in field " + quoted(field) + " (expected e<n0>.<n1>...)");
      if (spec_.surw_events.size() == kMaxSurwThreads) {
        return fail(error_, "field " + quoted(field) + " has more than " + std::to_string(kMaxSurwThreads) + " threads");
      }
      spec_.surw_events.push_back(*count);
      if (dot == std::string_view::npos) return true;
      rest = rest.substr(dot + 1);
    }
  }

  RunSpec& spec_;
  std::string* error_;
  bool seen_events_ = false, seen_uniform_ = false;
  bool seen_depth_ = false, seen_steps_ = false, seen_bound_ = false;
  bool seen_spurious_ = false, seen_points_ = false, seen_max_steps_ = false;
};

}  // namespace

std::string_view to_string(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::Random: return "random";
    case StrategyKind::Pct: return "pct";
    case StrategyKind::Replay: return "replay";
    case StrategyKind::Preemptions: return "preemptions";
    case StrategyKind::Dfs: return "dfs";
    case StrategyKind::Pos: return "pos";
    case StrategyKind::Surw: return "surw";
    case StrategyKind::Portfolio: return "portfolio";
  }
  return "unknown";
}

std::string to_handle(const RunSpec& spec) {
  std::string handle = std::to_string(spec.seed) + ":" + std::string(to_string(spec.strategy));
  if (spec.strategy == StrategyKind::Pct) {
    handle += ":d" + std::to_string(spec.pct_depth) + ":k" + std::to_string(spec.pct_steps);
  }
  if (spec.strategy == StrategyKind::Surw) {
    handle += ":e";
    for (std::size_t i = 0; i < spec.surw_events.size(); ++i) {
      handle += (i == 0 ? "" : ".") + std::to_string(spec.surw_events[i]);
    }
    if (spec.surw_uniform_percent != 0) handle += ":u" + std::to_string(spec.surw_uniform_percent);
  }
  if (spec.strategy == StrategyKind::Random && spec.preemption_bound) {
    handle += ":pb" + std::to_string(*spec.preemption_bound);
  }
  if (spec.spurious_wakeups) handle += ":sw";
  if (spec.points == PointsMode::Sync) handle += ":sync";
  if (spec.points == PointsMode::Accesses) handle += ":acc";
  if (spec.max_steps != kDefaultMaxSteps) handle += ":m" + std::to_string(spec.max_steps);
  if (spec.expected_hash) handle += "@" + format_hash(*spec.expected_hash);
  return handle;
}

std::optional<RunSpec> parse_handle(std::string_view text, std::string* error) {
  RunSpec spec;
  std::string_view body = text;
  if (const std::size_t at = text.find('@'); at != std::string_view::npos) {
    body = text.substr(0, at);
    const std::string_view hash_text = text.substr(at + 1);
    spec.expected_hash = parse_hash(hash_text);
    if (!spec.expected_hash) {
      fail(error, "bad schedule hash " + quoted(hash_text) + " (expected 16 hex digits after '@')");
      return std::nullopt;
    }
  }

  const std::size_t seed_end = body.find(':');
  const std::string_view seed_text = body.substr(0, seed_end);
  const std::optional<std::uint64_t> seed = parse_decimal<std::uint64_t>(seed_text);
  if (!seed) {
    fail(error, "bad seed " + quoted(seed_text) + " (expected a decimal number)");
    return std::nullopt;
  }
  spec.seed = *seed;
  if (seed_end == std::string_view::npos) {
    fail(error, "missing strategy after the seed (expected ':random', ':pct', ':pos' or ':surw')");
    return std::nullopt;
  }

  std::string_view rest = body.substr(seed_end + 1);  // "<strategy>[:<field>]..."
  std::size_t field_end = rest.find(':');
  const std::string_view strategy = rest.substr(0, field_end);
  if (strategy == "random") {
    spec.strategy = StrategyKind::Random;
  } else if (strategy == "pct") {
    spec.strategy = StrategyKind::Pct;
  } else if (strategy == "dfs") {
    spec.strategy = StrategyKind::Dfs;
  } else if (strategy == "pos") {
    spec.strategy = StrategyKind::Pos;
  } else if (strategy == "surw") {
    spec.strategy = StrategyKind::Surw;
  } else if (strategy == "replay" || strategy == "preemptions") {
    fail(error, std::string(strategy == "replay" ? "a replay" : "a preemptions run") +
                    " cannot be named by a handle alone: replay its schedule file");
    return std::nullopt;
  } else {
    fail(error, "unknown strategy " + quoted(strategy) + " (expected 'random', 'pct', 'pos' or 'surw')");
    return std::nullopt;
  }

  FieldParser fields(spec, error);
  while (field_end != std::string_view::npos) {
    rest = rest.substr(field_end + 1);
    field_end = rest.find(':');
    if (!fields.parse(rest.substr(0, field_end))) return std::nullopt;
  }
  if (!fields.check_complete()) return std::nullopt;
  return spec;
}

std::string format_hash(std::uint64_t hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) text[static_cast<std::size_t>(i)] = kDigits[hash & 0xf];
  return text;
}

std::optional<std::uint64_t> parse_hash(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t hash = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), hash, 16);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return hash;
}

}  // namespace ctrlsched

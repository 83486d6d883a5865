// The schedule file: a run's decision log as versioned text (format in schedule.h).
//
// Why text with run-length tokens: schedules are attached to bug reports and read by people, and
// long spin phases ("S1 S1 S1 ...") compress to "S1*40". Loading is strict and every error is one
// line naming the file line, because a silently misread schedule would replay some other run.
// The count and the hash are checked so a truncated or hand-edited file is caught before it runs.
#include "ctrlsched/schedule.h"

#include <algorithm>
#include <charconv>

#include "ctrlsched/run_spec.h"

namespace ctrlsched {
namespace {

constexpr std::size_t kMaxLineChars = 100;
constexpr std::string_view kMagic = "ctrlsched-schedule";
// Guards against a corrupt count or repeat making the loader allocate without bound; far more
// decisions than a run record can hold.
constexpr std::uint64_t kMaxDecisions = std::uint64_t{1} << 26;

// Consecutive runs of one decision, as "S1" or "S1*12".
std::string run_token(Decision d, std::uint64_t repeat) {
  std::string token = to_token(d);
  if (repeat >= 2) token += "*" + std::to_string(repeat);
  return token;
}

std::optional<std::uint64_t> parse_count(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Reads the file line by line, skipping comment and blank lines, remembering line numbers.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : rest_(text) {}

  // Next meaningful line, without its line ending; nullopt at the end of the text.
  std::optional<std::string_view> next() {
    while (!rest_.empty()) {
      const std::size_t end = rest_.find('\n');
      std::string_view line = rest_.substr(0, end);
      rest_ = end == std::string_view::npos ? std::string_view{} : rest_.substr(end + 1);
      ++number_;
      if (line.ends_with('\r')) line.remove_suffix(1);
      if (line.empty() || line[0] == '#') continue;
      return line;
    }
    return std::nullopt;
  }

  std::size_t number() const { return number_; }

 private:
  std::string_view rest_;
  std::size_t number_ = 0;
};

class ScheduleParser {
 public:
  ScheduleParser(std::string_view text, std::string* error) : lines_(text), error_(error) {}

  bool read(Schedule& schedule) {
    std::string hash_text, count_text;
    if (!header() || !field("handle", schedule.handle) || !field("hash", hash_text)) return false;
    const std::optional<std::uint64_t> hash = parse_hash(hash_text);
    if (!hash) return fail("bad hash '" + hash_text + "' (expected 16 hex digits)");
    schedule.hash = *hash;

    if (!field("decisions", count_text)) return false;
    const std::optional<std::uint64_t> count = parse_count(count_text);
    if (!count) return fail("bad decision count '" + count_text + "'");
    if (*count > kMaxDecisions) return fail("decision count " + count_text + " exceeds the supported maximum");

    while (const std::optional<std::string_view> line = lines_.next()) {
      if (!tokens(*line, *count, schedule.decisions)) return false;
    }
    if (schedule.decisions.size() != *count) {
      return fail_at_end("count mismatch: the header says " + std::to_string(*count) + " decisions but " +
                         std::to_string(schedule.decisions.size()) + " follow");
    }
    const std::uint64_t actual = hash_decisions(schedule.decisions);
    if (actual != schedule.hash) {
      return fail_at_end("hash mismatch: the header says " + format_hash(schedule.hash) +
                         " but the decisions hash to " + format_hash(actual));
    }
    return true;
  }

 private:
  // "ctrlsched-schedule <version>"
  bool header() {
    const std::optional<std::string_view> line = lines_.next();
    const std::string magic_and_space = std::string(kMagic) + " ";
    const std::string supported = std::to_string(kScheduleFormatVersion);
    if (!line) return fail_at_end("empty file: not a ctrlsched schedule (expected '" + magic_and_space + supported + "')");
    if (!line->starts_with(magic_and_space)) {
      return fail("not a ctrlsched schedule (expected '" + magic_and_space + supported + "')");
    }
    const std::string_view version = line->substr(magic_and_space.size());
    if (version != supported) {
      return fail("unsupported schedule version '" + std::string(version) + "' (this build reads version " +
                  supported + ")");
    }
    return true;
  }

  // "<name> <value>" with a non-empty value.
  bool field(std::string_view name, std::string& value) {
    const std::optional<std::string_view> line = lines_.next();
    const std::string prefix = std::string(name) + " ";
    const std::string expected = "expected '" + prefix + "<" + std::string(name) + ">'";
    if (!line) return fail_at_end("unexpected end of file: " + expected);
    if (!line->starts_with(prefix) || line->size() == prefix.size()) return fail(expected);
    const std::string_view text = line->substr(prefix.size());
    // Control characters would not survive writing the file again (a '\r' before the newline
    // is taken as a CRLF line ending), and no handle or hash has one. Found by fuzz_schedule.
    const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
    if (std::any_of(text.begin(), text.end(), control)) {
      return fail("the " + std::string(name) + " holds a control character");
    }
    value = std::string(text);
    return true;
  }

  bool tokens(std::string_view line, std::uint64_t count, std::vector<Decision>& out) {
    while (true) {
      const std::size_t end = line.find(' ');
      if (!token(line.substr(0, end), count, out)) return false;
      if (end == std::string_view::npos) return true;
      line = line.substr(end + 1);
    }
  }

  // "<decision>" or "<decision>*<n>" with n >= 2, appended to `out` without exceeding `count`.
  bool token(std::string_view text, std::uint64_t count, std::vector<Decision>& out) {
    if (text.empty()) return fail("empty token (tokens are separated by single spaces)");
    const std::size_t star = text.find('*');
    const std::optional<Decision> decision = parse_token(text.substr(0, star));
    std::optional<std::uint64_t> repeat = 1;
    if (star != std::string_view::npos) repeat = parse_count(text.substr(star + 1));
    if (!decision || !repeat || (star != std::string_view::npos && *repeat < 2)) {
      return fail("bad token '" + std::string(text) + "'");
    }
    if (*repeat > count - out.size()) {
      return fail("count mismatch: more decisions follow than the " + std::to_string(count) + " the header says");
    }
    out.insert(out.end(), *repeat, *decision);
    return true;
  }

  bool fail(const std::string& reason) { return fail_at_end("line " + std::to_string(lines_.number()) + ": " + reason); }

  bool fail_at_end(const std::string& reason) {
    if (error_) *error_ = reason;
    return false;
  }

  LineReader lines_;
  std::string* error_;
};

}  // namespace

std::uint64_t hash_decisions(const std::vector<Decision>& decisions) {
  std::uint64_t hash = kScheduleHashSeed;
  for (const Decision d : decisions) hash = hash_decision(hash, d);
  return hash;
}

std::string to_text(const Schedule& schedule) {
  std::string text = std::string(kMagic) + " " + std::to_string(kScheduleFormatVersion) + "\n";
  text += "handle " + schedule.handle + "\n";
  text += "hash " + format_hash(schedule.hash) + "\n";
  text += "decisions " + std::to_string(schedule.decisions.size()) + "\n";

  std::string line;
  const auto emit = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > kMaxLineChars) {
      text += line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
  };
  const std::vector<Decision>& decisions = schedule.decisions;
  for (std::size_t start = 0; start < decisions.size();) {
    std::size_t end = start + 1;
    while (end < decisions.size() && decisions[end] == decisions[start]) ++end;
    emit(run_token(decisions[start], end - start));
    start = end;
  }
  if (!line.empty()) text += line + "\n";
  return text;
}

std::optional<Schedule> parse_schedule(std::string_view text, std::string* error) {
  Schedule schedule;
  if (!ScheduleParser(text, error).read(schedule)) return std::nullopt;
  return schedule;
}

}  // namespace ctrlsched

// The ground truth of examples/root_causes.txt and of the corpus programs' `ctrlsched-truth:`
// headers (tests/eval/corpus/README.md), and the rule that decides whether a reported pattern
// or pair is "true" (defined in root_causes.txt's header). Header-only: the evaluator
// (evaluate.cc) and the e2e tests (tests/e2e/localize_test.cc, evaluation_test.cc) judge with
// the same code.
#pragma once

#include <cctype>
#include <cstdlib>
#include <istream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ctrlsched::eval {

// A side's kind as the truth and the reports spell it: "R" or "W" for a memory access (also
// from "read"/"write"), otherwise the lower-case synchronization word ("lock", "unlock",
// "signal", "wait", "post", "semwait", "create", "join").
inline std::string normalized_kind(const std::string& text) {
  if (text == "R" || text == "r" || text == "read") return "R";
  if (text == "W" || text == "w" || text == "write") return "W";
  std::string kind;
  for (const char c : text) kind += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return kind;
}

// One side of a reported pattern: kind, role (1 = first side's thread) and symbolized source.
struct ReportedSide {
  ReportedSide() = default;
  // {access, role, file, line}: an access side, as the e2e tests write them.
  ReportedSide(char access_, int role_, std::string file_, int line_)
      : access(access_), role(role_), file(std::move(file_)), line(line_), kind(1, access_) {}

  char access = '?';  // 'R' or 'W' for memory accesses, '?' for synchronization sides
  int role = 0;
  std::string file;
  int line = 0;
  std::string kind;  // normalized_kind(): "R", "W", "lock", ...; empty = std::string(1, access)

  std::string kind_text() const { return kind.empty() ? std::string(1, access) : kind; }
};

inline void set_kind(ReportedSide& side, const std::string& text) {
  side.kind = normalized_kind(text);
  side.access = side.kind == "R" || side.kind == "W" ? side.kind[0] : '?';
}

struct TruthSide {
  std::string kind;  // normalized_kind()
  int role = 0;
  int line = 0;
};

// One accepted cause. `variables` are the location names it may be reported on (a cause on a
// heap object, which ctrlsched names by address, has none: any location matches).
struct TruthPattern {
  std::vector<std::string> variables;
  std::vector<TruthSide> sides;
};

// "<kind><role>@<line>", e.g. "R1@28" or "lock2@31"; false if malformed.
inline bool parse_truth_side(const std::string& text, TruthSide& side) {
  const auto at = text.find('@');
  if (at == std::string::npos || at < 2) return false;
  std::size_t digits = at;
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(text[digits - 1]))) --digits;
  if (digits == 0 || digits == at) return false;
  side.kind = normalized_kind(text.substr(0, digits));
  side.role = std::atoi(text.substr(digits, at - digits).c_str());
  side.line = std::atoi(text.c_str() + at + 1);
  return side.role > 0 && side.line > 0;
}

// "a,b" -> {a, b}; "*" -> {} (any location).
inline std::vector<std::string> parse_truth_variables(const std::string& text) {
  std::vector<std::string> names;
  if (text == "*") return names;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

// The ground truth of one corpus program, from its `ctrlsched-truth:` header lines.
struct ProgramTruth {
  std::string name;         // file stem: the program and its binaries are named after it
  std::string source;       // file name, e.g. "bank_deposit.c"
  std::string bug_class;    // class=...
  std::string fails;        // fails=... (assertion, signal, exit, deadlock, hang)
  std::vector<TruthPattern> causes;
  std::vector<std::string> problems;  // malformed header lines
};

inline void split_file_line(const std::string& file_line, ReportedSide& side) {
  const auto colon = file_line.rfind(':');
  if (colon == std::string::npos) return;
  side.file = file_line.substr(0, colon);
  side.line = std::atoi(file_line.c_str() + colon + 1);
}

// Falcon JSON site: "file:line function".
inline ReportedSide falcon_side(const std::string& access, int role, const std::string& site) {
  ReportedSide side;
  set_kind(side, access);
  side.role = role;
  split_file_line(site.substr(0, site.find(' ')), side);
  return side;
}

// Locon JSON site: "function (file:line)".
inline ReportedSide locon_side(const std::string& access, int role, const std::string& site) {
  ReportedSide side;
  set_kind(side, access);
  side.role = role;
  const auto open = site.rfind('(');
  const auto close = site.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    split_file_line(site.substr(open + 1, close - open - 1), side);
  }
  return side;
}

// ConSeq order text: "R T2 file:line function → W T1 file:line function  variable (...)".
inline std::vector<ReportedSide> conseq_sides(const std::string& text) {
  std::vector<ReportedSide> sides;
  const std::string arrow = " → ";
  const auto at = text.find(arrow);
  if (at == std::string::npos) return sides;
  for (const std::string& part : {text.substr(0, at), text.substr(at + arrow.size())}) {
    std::istringstream in(part);
    std::string access, thread, file_line;
    in >> access >> thread >> file_line;
    ReportedSide side;
    set_kind(side, access);
    side.role = static_cast<int>(sides.size()) + 1;
    split_file_line(file_line, side);
    sides.push_back(side);
  }
  return sides;
}

class Truth {
 public:
  static Truth parse(std::istream& in) {
    Truth truth;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string example, variables;
      TruthPattern pattern;
      if (!(fields >> example >> variables)) continue;
      pattern.variables = parse_truth_variables(variables);
      for (std::string text; fields >> text;) {
        TruthSide side;
        if (parse_truth_side(text, side)) pattern.sides.push_back(side);
      }
      if (truth.patterns_.find(example) == truth.patterns_.end()) truth.order_.push_back(example);
      truth.patterns_[example].push_back(pattern);
    }
    return truth;
  }

  // Reads one corpus program's `ctrlsched-truth:` header (tests/eval/corpus/README.md): the
  // lines starting with "// ctrlsched-truth:" before the first line that is not a comment.
  // Adds its causes under `name` and returns everything the header says.
  ProgramTruth add_program(const std::string& name, const std::string& source, std::istream& in) {
    ProgramTruth program;
    program.name = name;
    program.source = source;
    const std::string tag = "// ctrlsched-truth:";
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("//", 0) != 0 && line.rfind("/*", 0) != 0 && line.rfind(" *", 0) != 0) break;
      if (line.rfind(tag, 0) != 0) continue;
      std::istringstream fields(line.substr(tag.size()));
      std::string word;
      fields >> word;
      if (word == "cause") {
        std::string variables;
        TruthPattern pattern;
        fields >> variables;
        pattern.variables = parse_truth_variables(variables);
        bool ok = !variables.empty();
        for (std::string text; fields >> text;) {
          TruthSide side;
          ok = ok && parse_truth_side(text, side);
          pattern.sides.push_back(side);
        }
        if (ok && pattern.sides.size() >= 2) {
          program.causes.push_back(pattern);
        } else {
          program.problems.push_back(line);
        }
        continue;
      }
      for (std::string key_value = word; !key_value.empty(); key_value.clear(), fields >> key_value) {
        const auto eq = key_value.find('=');
        const std::string key = key_value.substr(0, eq), value = eq == std::string::npos ? "" : key_value.substr(eq + 1);
        if (key == "class") program.bug_class = value;
        else if (key == "fails") program.fails = value;
        else program.problems.push_back(line);
      }
    }
    if (program.bug_class.empty() || program.fails.empty() || program.causes.empty()) {
      program.problems.push_back("missing class=, fails= or cause");
    }
    if (patterns_.find(name) == patterns_.end()) order_.push_back(name);
    auto& causes = patterns_[name];
    causes.insert(causes.end(), program.causes.begin(), program.causes.end());
    return program;
  }

  const std::vector<std::string>& examples() const { return order_; }
  const std::vector<TruthPattern>& patterns(const std::string& example) const {
    static const std::vector<TruthPattern> none;
    const auto it = patterns_.find(example);
    return it == patterns_.end() ? none : it->second;
  }

  // True when `sides` are a contiguous run of one of the example's patterns: same kinds, same
  // lines in the example's own source file, same role structure, and (if `location` is given
  // and the pattern names variables) one of the pattern's variables up to a "+offset".
  bool is_true(const std::string& example, const std::vector<ReportedSide>& sides, const std::string& location) const {
    if (sides.size() < 2) return false;
    for (const ReportedSide& side : sides) {
      if (side.file.rfind(example + ".", 0) != 0) return false;
    }
    for (const TruthPattern& pattern : patterns(example)) {
      if (!location.empty() && !pattern.variables.empty() && !names_variable(pattern, location)) continue;
      for (std::size_t start = 0; start + sides.size() <= pattern.sides.size(); ++start) {
        if (matches_at(pattern, start, sides)) return true;
      }
    }
    return false;
  }

 private:
  static bool names_variable(const TruthPattern& pattern, const std::string& location) {
    const std::string name = location.substr(0, location.find('+'));
    for (const std::string& variable : pattern.variables) {
      if (variable == name) return true;
    }
    return false;
  }

  static bool matches_at(const TruthPattern& pattern, std::size_t start, const std::vector<ReportedSide>& sides) {
    for (std::size_t i = 0; i < sides.size(); ++i) {
      const TruthSide& want = pattern.sides[start + i];
      if (sides[i].kind_text() != want.kind || sides[i].line != want.line) return false;
      for (std::size_t j = 0; j < i; ++j) {
        const bool same_reported = sides[i].role == sides[j].role;
        const bool same_truth = want.role == pattern.sides[start + j].role;
        if (same_reported != same_truth) return false;
      }
    }
    return true;
  }

  std::map<std::string, std::vector<TruthPattern>> patterns_;
  std::vector<std::string> order_;
};

}  // namespace ctrlsched::eval

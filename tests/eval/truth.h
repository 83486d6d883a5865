// The ground truth of examples/root_causes.txt and the rule that decides whether a reported
// pattern or pair is "true" (defined in that file's header). Header-only: the evaluator
// (evaluate.cc) and the e2e tests (tests/e2e/localize_test.cc) judge with the same code.
#pragma once

#include <cstdlib>
#include <istream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ctrlsched::eval {

// One access of a reported pattern: kind, role (1 = first side's thread) and symbolized source.
struct ReportedSide {
  char access = '?';  // 'R' or 'W'
  int role = 0;
  std::string file;
  int line = 0;
  std::string kind;   // the whole kind word: "R", "W", or a sync operation ("lock", "signal", ...)
};

struct TruthSide {
  char access = '?';
  int role = 0;
  int line = 0;
  std::string kind;   // "R", "W", "lock", "unlock", "signal", "wait", ... (ctrlsched/sync_ops.h)
};

// Two kinds are the same: equal words (a report that gave no word compares by first letter).
inline bool same_kind(const ReportedSide& reported, const TruthSide& want) {
  if (!reported.kind.empty() && !want.kind.empty()) return reported.kind == want.kind;
  return reported.access == want.access;
}

struct TruthPattern {
  std::string variable;
  std::vector<TruthSide> sides;
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
  side.access = access.empty() ? '?' : access[0];
  side.kind = access;
  side.role = role;
  split_file_line(site.substr(0, site.find(' ')), side);
  return side;
}

// Locon JSON site: "function (file:line)".
inline ReportedSide locon_side(const std::string& access, int role, const std::string& site) {
  ReportedSide side;
  side.access = access.empty() ? '?' : access[0];
  side.kind = access;
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
    side.access = access.empty() ? '?' : access[0];
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
      std::string example;
      TruthPattern pattern;
      if (!(fields >> example >> pattern.variable)) continue;
      // <kind><role>@<line>: the kind is the letters before the role's digits (R, W, lock, ...).
      for (std::string side; fields >> side;) {
        const auto at = side.find('@');
        const auto digits = side.find_first_of("0123456789");
        if (side.size() < 4 || at == std::string::npos || digits == 0 || digits >= at) continue;
        pattern.sides.push_back({side[0], std::atoi(side.substr(digits, at - digits).c_str()),
                                 std::atoi(side.c_str() + at + 1), side.substr(0, digits)});
      }
      if (truth.patterns_.find(example) == truth.patterns_.end()) truth.order_.push_back(example);
      truth.patterns_[example].push_back(pattern);
    }
    return truth;
  }

  const std::vector<std::string>& examples() const { return order_; }
  const std::vector<TruthPattern>& patterns(const std::string& example) const {
    static const std::vector<TruthPattern> none;
    const auto it = patterns_.find(example);
    return it == patterns_.end() ? none : it->second;
  }

  // True when `sides` are a contiguous run of one of the example's patterns: same kinds, same
  // lines in the example's own source file, same role structure, and (if `location` is given)
  // the same variable up to a "+offset".
  bool is_true(const std::string& example, const std::vector<ReportedSide>& sides, const std::string& location) const {
    if (sides.size() < 2) return false;
    for (const ReportedSide& side : sides) {
      if (side.file.rfind(example + ".", 0) != 0) return false;
    }
    for (const TruthPattern& pattern : patterns(example)) {
      if (!location.empty() && location.substr(0, location.find('+')) != pattern.variable) continue;
      for (std::size_t start = 0; start + sides.size() <= pattern.sides.size(); ++start) {
        if (matches_at(pattern, start, sides)) return true;
      }
    }
    return false;
  }

 private:
  static bool matches_at(const TruthPattern& pattern, std::size_t start, const std::vector<ReportedSide>& sides) {
    for (std::size_t i = 0; i < sides.size(); ++i) {
      const TruthSide& want = pattern.sides[start + i];
      if (!same_kind(sides[i], want) || sides[i].line != want.line) return false;
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

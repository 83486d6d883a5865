// A refutation is about one memory location; the reader reads it by source line (docs/forcing.md,
// "Refuted, but the same lines fail elsewhere"). Two forced patterns can name the same lines,
// kinds and roles and differ only in the location they order: two words of one object (a
// std::vector's _M_start and _M_finish), read and written at the same lines. Forcing one word's
// order can leave the thread's other reads to see the finished object, so that order never fails
// (refuted), while the other word's order fails every time. "line 30 before line 20: refuted"
// beside "line 30 before line 20: fails 20/20" sends the reader away from the cause. So a
// refutation stands only if no such sibling fails like a cause; otherwise the pattern is
// `inconclusive`, with the sibling's evidence as the reason. Pure, so the rule is unit-tested.
#pragma once

#include <string>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "localize/confirm.h"

namespace ctrlsched::driver {

// A forced pattern as the rule compares it.
struct ForcedPattern {
  ForceDirective directive{};
  std::vector<std::string> step_names;  // "R a.c:30 f" per step: access kind, source line, function
  std::string location;                 // "0x7fffffffe418", "balance"; "" when unknown
  bool symptom = false;
};

// Same kind of directive, same number of steps, and step by step the same access kind, role and
// step name (its source line and function): the patterns may differ in their sites (two
// instructions on one line) and in the location they order.
bool same_lines(const ForcedPattern& a, const ForcedPattern& b);

// The sibling's evidence that the lines matter: its order completed in at least
// kMinCompletedRuns runs and at least kCauseFailureRate of those failed the same way, it is not a
// symptom (whose order completes only in failing runs), and its opposite order does not fail as
// often (then the order of these lines does not matter, which agrees with the refutation).
bool fails_like_a_cause(const ConfirmationResult& sibling, bool symptom);

// Makes a refuted `c` inconclusive with the reason
// "the same lines on 0x7fffffffe418 fail 20/20 where that order completed: this location's order
// alone does not decide"; leaves any other verdict alone.
void qualify_refutation(ConfirmationResult& c, const ConfirmationResult& sibling, const std::string& sibling_location);

// Applies the rule to every pattern: results[i] belongs to patterns[i] (nullptr: not forced).
// Decides on the verdicts as forcing gave them, so the order of the patterns does not matter;
// the first sibling (in pattern order) that fails like a cause names the reason.
void qualify_refutations_by_lines(const std::vector<ForcedPattern>& patterns,
                                  const std::vector<ConfirmationResult*>& results);

}  // namespace ctrlsched::driver

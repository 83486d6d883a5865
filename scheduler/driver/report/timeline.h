// The interleaving of one traced run as the HTML report draws it (html_report.h): steps in
// execution order, one lane per thread, with what the page marks on them. Like a SARIF thread
// flow (thread_flow.h), consecutive events of one thread at one source line form one step; unlike
// it, a thread's `block` (it starts waiting on a sync object) is always a step of its own, so the
// page can shade the lane from there until the thread's next step, and a switch says whether it
// was a preemption (from the run's switch log, aligned with the trace's Switch events as in
// interleaving.h; past a disagreement no switch is called a preemption).
//
// Two analyses over those steps, for the page's highlights:
//  - blocked_at_end: the threads whose last step is a block (a deadlock's threads), each with
//    what it waits for and the step where the holder took the lock it waits for;
//  - find_pattern_steps: where a localization pattern (its accesses' sites and thread roles)
//    occurs in the run, latest occurrence first.
// Pure: symbolization comes in through localize::Symbolizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"
#include "ctrlsched/preemption_schedule.h"

namespace ctrlsched::driver {

struct TimelinePlace {
  std::string file;      // as the symbolizer gives it (a full path when known), "" if unknown
  std::uint32_t line = 0;
  std::string function;  // "" if unknown
  std::string module;    // "module+0xoffset" when the site has no source line
};

struct TimelineStep {
  std::uint32_t thread = 0;
  std::string what;           // event kinds at this line ("read, write", "acquire mutex", "block on mutex")
  std::size_t place = 0;      // index into Timeline::places
  bool switched_to = false;   // the scheduler switched to this thread just before this step
  bool preempted = false;     // ... and that switch was a preemption of the previous thread
  bool blocks = false;        // the thread starts waiting here (until its next step)
  bool reads = false, writes = false;  // the step holds a read / a write (atomics count as both sides they touch)
};

// A thread waiting when the run ended.
struct BlockedAtEnd {
  std::uint32_t thread = 0;
  std::size_t step = 0;                   // its last step: the block
  std::string waits_for;                  // "mutex", "join T2", ...
  std::optional<std::uint32_t> holder;    // the thread holding the object, when one does
  std::optional<std::size_t> held_since;  // the holder's step that acquired it
};

struct Timeline {
  std::string handle;
  std::uint32_t threads = 0;  // highest thread id seen + 1
  std::vector<TimelinePlace> places;
  std::vector<TimelineStep> steps;
  bool truncated = false;  // more steps than the limit, or the trace itself was cut short
  std::vector<BlockedAtEnd> blocked_at_end;
};

// At most `limit` steps.
Timeline build_timeline(const localize::Trace& trace, std::span<const SwitchPoint> switch_log,
                        localize::Symbolizer& symbolizer, std::size_t limit);

// One access of a localization pattern: `site` as localization writes it ("file:line function",
// the file's base name), `role` 1 or 2 (same role = same thread), `access` "R", "W" or a sync
// operation's word (matched by site only).
struct PatternAccess {
  std::string site;
  std::uint32_t role = 0;
  std::string access;
};

// The steps of the latest occurrence of the pattern (one per access, in order), or empty when the
// run holds no complete occurrence. Steps match an access by base file name, line and function,
// and by the access's direction.
std::vector<std::size_t> find_pattern_steps(const Timeline& timeline, std::span<const PatternAccess> pattern);

// Every step at one of the pattern's sites (the page's fallback when no occurrence is complete).
std::vector<std::size_t> steps_at_pattern_sites(const Timeline& timeline, std::span<const PatternAccess> pattern);

}  // namespace ctrlsched::driver

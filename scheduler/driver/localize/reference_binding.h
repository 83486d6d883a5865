// Binding a suspected pattern to the run it was seen failing in (docs/forcing.md, "Binding").
//
// A pattern names code (sites), not threads or iterations. Forced as is, its first role binds to
// whichever thread performs the first step first, at whatever iteration: main running the same
// function during initialization, or the first loop iteration, when the failing run had a worker
// at its third iteration. bind_to_reference finds the pattern's last occurrence in the reference
// failing run's trace (the one closest to the failure) and returns the directive with each role
// bound to that occurrence's thread (creation index) and, optionally, each role's first step bound
// to the thread's n-th access at that site (for a sync step, its n-th call of the operation there,
// a call that waited counted once). Sync steps match their operations' events (sync_op_of). Pure,
// so it is unit-tested on hand-built traces.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/localize/trace.h"

namespace ctrlsched::driver {

struct ReferenceOccurrence {
  std::vector<std::size_t> events;     // trace index of each step's access, in step order
  std::vector<std::uint32_t> threads;  // each step's thread
  // The last step never happened: the run ended first. Its event is then its thread's last access
  // at the step's site (anywhere), and the step is bound to the thread's next one.
  bool cut_short = false;
};

// The occurrence of the directive's steps (Order only) whose last access is the latest in the
// trace, and among those the one whose accesses are latest: steps in order, same role = same
// thread, different roles = different threads, same location = same address. With the threads
// of that occurrence, an occurrence in which no write to the location comes between two
// consecutive steps on it is preferred (the later step saw the earlier one), the latest such;
// without one, the occurrence the run's end cut short if there is one (every step but a last
// write happened, in order, the latest; no write by that role's thread reached the location after
// them, the thread had not exited, and the write the prefix saw there was not that thread's at
// the write's site: the run ended first, as Falcon reads orders); only without
// either the latest is kept. nullopt if the trace has none (or the search budget ran out). With
// `statements` (a site -> the site standing for its statement, as Falcon merges them:
// falcon_summary.h, statement_sites), a step also matches an access at another site of its
// statement: a function inlined into two threads' code (two lambdas) runs one line at two
// program counters, and a pattern's example names one thread's copy of each step.
using SiteStatements = std::map<std::uint64_t, std::uint64_t>;
std::optional<ReferenceOccurrence> last_occurrence(const ForceDirective& directive, const localize::Trace& trace,
                                                   const SiteStatements* statements = nullptr);

// Whether the trace has an occurrence of the directive's steps (Order only), accesses and sync
// operations alike, in order, with the role and location constraints of last_occurrence and no
// binding: whoever performs them, at whatever iteration; or cut short by the run's end as Falcon
// reads orders (every step but a last write happened in order, and the run has no such write at
// all). The counterfactual control asks it of a run in which the opposite order did not complete:
// did the pattern itself happen there? nullopt when the search ran out of budget before it could
// say.
std::optional<bool> occurs_in(const ForceDirective& directive, const localize::Trace& trace);

// The directive with roles bound to the occurrence's threads and each step at the site its access
// (or sync call) had there; with `occurrences`, each role's first step also gets the thread's
// occurrence index of that access (or sync call) at its site. nullopt if a thread cannot be named
// in a directive (ThreadId >= 255).
std::optional<ForceDirective> bind_to_occurrence(const ForceDirective& directive, const localize::Trace& trace,
                                                 const ReferenceOccurrence& occurrence, bool occurrences);

// The lock that the thread of the occurrence's first step holds at that step and took first (the
// outermost critical section the step is in; a recursive lock counts until its last release), as
// a sync step of that step's role: the lock call's site and the thread's number of that call
// there (its occurrence), on a location no step of the directive uses. nullopt when the thread
// holds no lock there. The failing run's context can be cut at that call instead of at the step
// (docs/forcing.md, "From the entry of the step's critical section").
std::optional<ForceStep> critical_section_entry(const ForceDirective& directive, const localize::Trace& trace,
                                                const ReferenceOccurrence& occurrence);

// Two cross-thread pairs of memory accesses on two locations as one order of four steps: a
// two-variable finding built from single-location patterns (coupled_halves.h). A step whose site
// one thread runs in the trace is that thread's first access there; a step whose site several
// threads run (main's initialization, or the initializer's own nested check, through the same
// code) is its access in its pair's occurrence (last_occurrence), and without one, or with one cut
// short, the pair is ruled out. The two pairs by the same two threads, on two addresses; the four
// ordered by each pair's own order and each thread's program order, ties by trace position. Roles
// are bound to the threads, each role's first step to its occurrence, `confirmed`'s steps on
// location 0 and `other`'s on 1. The trace need not have the coupled order (it may have the bug's
// other straddle). nullopt when a step cannot be placed or the orders contradict each other.
std::optional<ForceDirective> couple_pairs(const ForceDirective& confirmed, const ForceDirective& other,
                                           const localize::Trace& trace);

// The two-variable findings to force `other` in with a confirmed pair: couple_pairs with the
// confirmed pair in its own order and reversed, those that can be placed. A bug with
// two straddles (either order of the two pairs' straddling fails) has a half of each among the
// single-location patterns, so the half of one straddle couples with the reversal of the other's
// confirmed half (corpus table_resize: the slots read after grow's slots write fails only with
// the capacity read before grow's capacity write); forcing finds out which coupling fails.
std::vector<ForceDirective> couplings(const ForceDirective& confirmed, const ForceDirective& other,
                                      const localize::Trace& trace);

// "roles T1, T2; T1's 3rd access at step 1" style description of a directive's binding
// ("roles bind at first match" when unbound).
std::string binding_text(const ForceDirective& directive);

}  // namespace ctrlsched::driver

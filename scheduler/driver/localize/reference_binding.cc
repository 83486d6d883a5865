// Binding a pattern to its occurrence in the reference failing run (see reference_binding.h).
#include "localize/reference_binding.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"

namespace ctrlsched::driver {
namespace {

using localize::is_access;
using localize::kind_of;

constexpr std::size_t kSearchBudget = 2'000'000;  // event comparisons per search

bool writes(EventKind k) { return k == EventKind::Write || k == EventKind::AtomicStore || k == EventKind::AtomicRmw; }

// Whether an event at `event_site` is at the step's site: the same, or (with `statements`) one of
// the same statement.
bool same_site(std::uint64_t step_site, std::uint64_t event_site, const SiteStatements* statements) {
  if (step_site == 0 || event_site == step_site) return true;
  if (statements == nullptr) return false;
  const auto step = statements->find(step_site), event = statements->find(event_site);
  return step != statements->end() && event != statements->end() && step->second == event->second;
}

// A sync step fits the event of its operation (sync_op_of), a memory step an access.
bool event_fits_step(const TraceEvent& e, const ForceStep& s, const SiteStatements* statements = nullptr) {
  const EventKind k = kind_of(e);
  if (s.access >= kForceSync) {
    return static_cast<std::uint8_t>(sync_op_of(e)) == s.access - kForceSync && same_site(s.site, e.site, statements);
  }
  if (!is_access(k)) return false;
  if (!same_site(s.site, e.site, statements)) return false;
  switch (static_cast<ForceAccess>(s.access)) {
    case ForceAccess::Any: return true;
    case ForceAccess::Read: return !writes(k);
    case ForceAccess::Write: return writes(k);
    case ForceAccess::Entry: return false;
  }
  return false;
}

class Search {
 public:
  // `adjacent`: consecutive steps on one location must have no write to it between them.
  // `threads`: when not empty, step i must be performed by threads[i].
  Search(const ForceDirective& d, const localize::Trace& t, bool adjacent, std::vector<std::uint32_t> threads = {},
         const SiteStatements* statements = nullptr)
      : d_(d), t_(t), adjacent_(adjacent), threads_(std::move(threads)), statements_(statements) {}

  // Matches steps [0, step] with step `step` at an event before `before`, latest first.
  bool match(std::uint32_t step, std::size_t before) {
    for (std::size_t i = before; i-- > 0;) {
      if (++work_ > kSearchBudget) return false;
      const TraceEvent& e = t_.events[i];
      if (!event_fits_step(e, d_.steps[step], statements_) || !consistent(step, i)) continue;
      chosen_[step] = i;
      if (step == 0 || match(step - 1, i)) return true;
      if (work_ > kSearchBudget) return false;
    }
    return false;
  }

  bool exhausted() const { return work_ > kSearchBudget; }

  std::array<std::size_t, kMaxForceSteps> chosen_{};

 private:
  // Role and location constraints against the steps after `step` (already chosen).
  bool consistent(std::uint32_t step, std::size_t at) {
    const TraceEvent& e = t_.events[at];
    if (!threads_.empty() && e.thread != threads_[step]) return false;
    for (std::uint32_t j = step + 1; j < d_.count; ++j) {
      const TraceEvent& other = t_.events[chosen_[j]];
      const bool same_role = d_.steps[j].role == d_.steps[step].role;
      if (same_role != (other.thread == e.thread)) return false;
      if (d_.steps[j].location == d_.steps[step].location && other.address != e.address) return false;
    }
    const std::uint32_t next = step + 1;
    if (adjacent_ && next < d_.count && d_.steps[next].location == d_.steps[step].location) {
      for (std::size_t k = at + 1; k < chosen_[next]; ++k) {
        if (++work_ > kSearchBudget) return false;
        const TraceEvent& between = t_.events[k];
        if (between.address == e.address && is_access(kind_of(between)) && writes(kind_of(between))) return false;
      }
    }
    return true;
  }

  const ForceDirective& d_;
  const localize::Trace& t_;
  const bool adjacent_;
  const std::vector<std::uint32_t> threads_;
  const SiteStatements* statements_;
  std::size_t work_ = 0;
};

std::string ordinal(std::uint32_t n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

// The thread's n-th access at the step's site, or its n-th call of the step's sync operation
// there, for the event at `at`: its accesses (calls) there up to this one. A call that blocked
// is one call however many events it left (continues_blocked_call), as the forcing strategy
// counts it.
std::uint32_t calls_up_to(const localize::Trace& trace, std::size_t at, const ForceStep& step) {
  const TraceEvent& mine = trace.events[at];
  const bool sync = step.access >= kForceSync;
  const auto op = static_cast<SyncOp>(sync ? step.access - kForceSync : 0);
  std::uint32_t n = 0;
  const TraceEvent* previous_sync = nullptr;  // the thread's last sync event before e
  for (std::size_t k = 0; k <= at; ++k) {
    const TraceEvent& e = trace.events[k];
    if (e.thread != mine.thread) continue;
    if (e.site == mine.site) {
      if (!sync && is_access(kind_of(e))) ++n;
      if (sync && sync_op_of(e) == op && (previous_sync == nullptr || !continues_blocked_call(*previous_sync, e))) ++n;
    }
    if (sync_op_of(e) != SyncOp::None) previous_sync = &e;
  }
  return n;
}

// The occurrence the run's end cut short (reference_binding.h): every step but a last write, in
// order, the latest, and after them no such write on that location by that role's thread, which
// had not exited and had not made the write the prefix saw there; nullopt otherwise.
std::optional<ReferenceOccurrence> cut_short_occurrence(const ForceDirective& d, const localize::Trace& trace,
                                                        const SiteStatements* statements) {
  if (d.count < 2) return std::nullopt;
  const std::uint32_t last = d.count - 1;
  const ForceStep& write = d.steps[last];
  if (static_cast<ForceAccess>(write.access) != ForceAccess::Write) return std::nullopt;
  ForceDirective prefix = d;
  prefix.count = last;
  Search before(prefix, trace, false, {}, statements);
  if (!before.match(prefix.count - 1, trace.events.size())) return std::nullopt;
  // The write's location is the one an earlier step reads or writes (else nothing says which
  // write never came); its thread, the one its role already has, or the other threads' last to
  // write at its site (the one whose next write it would have been).
  std::optional<std::uint64_t> address;
  std::optional<std::size_t> last_on_location;  // the prefix's last step on the write's location
  std::optional<std::uint32_t> thread;
  std::set<std::uint32_t> other_roles;
  for (std::uint32_t i = 0; i < last; ++i) {
    const TraceEvent& e = trace.events[before.chosen_[i]];
    if (d.steps[i].location == write.location) {
      address = e.address;
      last_on_location = before.chosen_[i];
    }
    if (d.steps[i].role == write.role) thread = e.thread;
    else other_roles.insert(e.thread);
  }
  if (!address) return std::nullopt;
  const std::size_t end_of_prefix = before.chosen_[last - 1];
  std::optional<std::size_t> representative;  // the thread's last write at the site, for its copy and count
  for (std::size_t k = trace.events.size(); k-- > 0;) {
    const TraceEvent& e = trace.events[k];
    if (!event_fits_step(e, write, statements) || other_roles.contains(e.thread)) continue;
    if (thread && e.thread != *thread) continue;
    if (k > end_of_prefix && e.address == *address) return std::nullopt;  // the write came
    if (!representative) representative = k;
  }
  if (!representative) return std::nullopt;
  const std::uint32_t writer = trace.events[*representative].thread;
  for (const TraceEvent& e : trace.events) {
    if (kind_of(e) == EventKind::ThreadExit && e.thread == writer) return std::nullopt;  // it never would
  }
  // A prefix that already saw that thread's write there (the last write to the location before
  // its step is the writer's, at the write's site) did not miss it: heldout9's lazy_codec reader
  // read a table entry the initializer had filled, and the initializer's later fills went to
  // other entries.
  for (std::size_t k = *last_on_location; k-- > 0;) {
    const TraceEvent& e = trace.events[k];
    if (!writes(kind_of(e)) || e.address != *address) continue;
    if (e.thread == writer && event_fits_step(e, write, statements)) return std::nullopt;
    break;
  }
  ReferenceOccurrence o;
  for (std::uint32_t i = 0; i < last; ++i) {
    o.events.push_back(before.chosen_[i]);
    o.threads.push_back(trace.events[before.chosen_[i]].thread);
  }
  o.events.push_back(*representative);
  o.threads.push_back(writer);
  o.cut_short = true;
  return o;
}

}  // namespace

std::optional<ReferenceOccurrence> last_occurrence(const ForceDirective& d, const localize::Trace& trace,
                                                   const SiteStatements* statements) {
  if (static_cast<ForceKind>(d.kind) != ForceKind::Order || d.count == 0 || d.count > kMaxForceSteps) return std::nullopt;
  // The threads are those of the latest occurrence; the occurrence of those threads is, if there
  // is one, the latest whose steps follow each other on their location, where each step saw (or
  // overwrote) the previous one: barrier_phase's next-phase add read by the serial thread's
  // total, not the next phase's own total read after the reset. Only the iteration moves: other
  // threads' adjacent occurrences can be main's initialization, an order every run has
  // (heldout2's conn_pool: main's first release before a worker's read, confirmed by the holds).
  Search any(d, trace, false, {}, statements);
  if (!any.match(d.count - 1, trace.events.size())) {
    if (any.exhausted()) return std::nullopt;
    return cut_short_occurrence(d, trace, statements);
  }
  std::vector<std::uint32_t> threads;
  for (std::uint32_t i = 0; i < d.count; ++i) threads.push_back(trace.events[any.chosen_[i]].thread);
  Search adjacent(d, trace, true, threads, statements);
  const bool saw_each_other = adjacent.match(d.count - 1, trace.events.size());
  // Without such an occurrence, the one the run's end cut short, if the run has one: ticket_sem's
  // counter read a slot the dispenser had announced and not yet filled, and crashed before the
  // store; every complete occurrence is the reuse of a slot, its own NULL store between the two.
  if (!saw_each_other) {
    if (auto cut = cut_short_occurrence(d, trace, statements)) return cut;
  }
  const Search& search = saw_each_other ? adjacent : any;
  ReferenceOccurrence o;
  for (std::uint32_t i = 0; i < d.count; ++i) {
    o.events.push_back(search.chosen_[i]);
    o.threads.push_back(trace.events[search.chosen_[i]].thread);
  }
  return o;
}

std::optional<bool> occurs_in(const ForceDirective& d, const localize::Trace& trace) {
  if (static_cast<ForceKind>(d.kind) != ForceKind::Order || d.count == 0 || d.count > kMaxForceSteps) return false;
  Search any(d, trace, false);
  if (any.match(d.count - 1, trace.events.size())) return true;
  if (any.exhausted()) return std::nullopt;
  // Cut short by the run's end, as Falcon reads orders (localize::add_orders_cut_short): every
  // step but a last write happened, in order, and the run never wrote there at all, because it
  // ended first (an order violation whose read crashes: heldout2's timer_wheel reads the wheel's
  // slots before main set them, and dereferences NULL).
  const ForceStep& last = d.steps[d.count - 1];
  if (d.count < 2 || static_cast<ForceAccess>(last.access) != ForceAccess::Write) return false;
  for (const TraceEvent& e : trace.events) {
    if (event_fits_step(e, last)) return false;
  }
  ForceDirective prefix = d;
  prefix.count = d.count - 1;
  Search before(prefix, trace, false);
  if (before.match(prefix.count - 1, trace.events.size())) return true;
  if (before.exhausted()) return std::nullopt;
  return false;
}

std::optional<ForceDirective> bind_to_occurrence(const ForceDirective& directive, const localize::Trace& trace,
                                                 const ReferenceOccurrence& occurrence, bool occurrences) {
  ForceDirective d = directive;
  d.role_threads = 0;
  std::array<bool, kMaxForceRoles> role_seen{};
  for (std::uint32_t i = 0; i < d.count && i < occurrence.events.size(); ++i) {
    const std::uint8_t role = d.steps[i].role;
    d.steps[i].occurrence = 0;
    if (d.steps[i].site != 0) d.steps[i].site = trace.events[occurrence.events[i]].site;  // its thread's copy
    if (role >= kMaxForceRoles || role_seen[role]) continue;
    role_seen[role] = true;
    if (!bind_role(d, role, occurrence.threads[i])) return std::nullopt;
    if (!occurrences) continue;
    // A write the run's end cut short is the thread's next one there.
    const bool never_came = occurrence.cut_short && i + 1 == d.count;
    d.steps[i].occurrence = calls_up_to(trace, occurrence.events[i], d.steps[i]) + (never_came ? 1 : 0);
  }
  return d;
}

std::optional<ForceStep> critical_section_entry(const ForceDirective& d, const localize::Trace& trace,
                                                const ReferenceOccurrence& occurrence) {
  if (d.count == 0 || occurrence.events.empty() || occurrence.threads.empty()) return std::nullopt;
  const std::size_t at = occurrence.events[0];
  const std::uint32_t thread = occurrence.threads[0];
  struct Held {
    std::size_t taken_at;  // the Acquire that took it
    std::uint32_t depth;   // a recursive lock's acquisitions not yet released
  };
  // A condition wait lets its mutex go and takes it back at the wait's own call site: the
  // critical section goes on across it.
  std::set<std::uint64_t> wait_sites;
  for (std::size_t k = 0; k < at && k < trace.events.size(); ++k) {
    const TraceEvent& e = trace.events[k];
    if (e.thread == thread && (sync_op_of(e) == SyncOp::Wait || sync_op_of(e) == SyncOp::Woken)) wait_sites.insert(e.site);
  }
  std::map<std::uint64_t, Held> held;  // lock object -> how the thread holds it
  for (std::size_t k = 0; k < at && k < trace.events.size(); ++k) {
    const TraceEvent& e = trace.events[k];
    if (e.thread != thread || sync_op_of(e) == SyncOp::None || !is_lock_kind(e.aux)) continue;
    if (wait_sites.contains(e.site)) continue;
    if (kind_of(e) == EventKind::Acquire) {
      ++held.try_emplace(e.address, Held{k, 0}).first->second.depth;
    } else if (kind_of(e) == EventKind::Release) {
      if (const auto it = held.find(e.address); it != held.end() && --it->second.depth == 0) held.erase(it);
    }
  }
  if (held.empty()) return std::nullopt;
  std::size_t first = trace.events.size();
  for (const auto& [object, h] : held) first = std::min(first, h.taken_at);
  std::array<bool, kMaxForceSteps> used{};
  for (std::uint32_t i = 0; i < d.count && i < kMaxForceSteps; ++i) {
    if (d.steps[i].location < kMaxForceSteps) used[d.steps[i].location] = true;
  }
  const auto free_location = std::find(used.begin(), used.end(), false);
  if (free_location == used.end()) return std::nullopt;
  ForceStep entry{};
  entry.site = trace.events[first].site;
  entry.access = static_cast<std::uint8_t>(kForceSync + static_cast<std::uint8_t>(SyncOp::Lock));
  entry.role = d.steps[0].role;
  entry.location = static_cast<std::uint16_t>(free_location - used.begin());
  entry.occurrence = calls_up_to(trace, first, entry);
  return entry;
}

std::optional<ForceDirective> couple_pairs(const ForceDirective& confirmed, const ForceDirective& other,
                                           const localize::Trace& trace) {
  const auto memory_pair = [](const ForceDirective& d) {
    return static_cast<ForceKind>(d.kind) == ForceKind::Order && d.count == 2 && d.steps[0].role != d.steps[1].role &&
           d.steps[0].access < kForceSync && d.steps[1].access < kForceSync &&
           d.steps[0].access != static_cast<std::uint8_t>(ForceAccess::Entry) &&
           d.steps[1].access != static_cast<std::uint8_t>(ForceAccess::Entry);
  };
  if (!memory_pair(confirmed) || !memory_pair(other)) return std::nullopt;
  // Each step: the one thread that runs its site in the trace, and that thread's first access there.
  // A site two threads run (a reader's check that the initializing thread's own nested call makes
  // too: heldout9's lazy_codec) is the pair's: its step at the pair's occurrence in the trace.
  const std::array<ForceStep, 4> steps{confirmed.steps[0], confirmed.steps[1], other.steps[0], other.steps[1]};
  std::array<std::size_t, 4> event{};
  std::array<std::optional<ReferenceOccurrence>, 2> occurrence;
  for (std::size_t i = 0; i < 4; ++i) {
    std::optional<std::size_t> first;
    bool shared = false;
    for (std::size_t e = 0; e < trace.events.size() && !shared; ++e) {
      const TraceEvent& ev = trace.events[e];
      if (!event_fits_step(ev, steps[i])) continue;
      if (!first) first = e;
      shared = ev.thread != trace.events[*first].thread;
    }
    if (!first) return std::nullopt;
    event[i] = *first;
    if (!shared) continue;
    const std::size_t pair = i / 2;
    if (!occurrence[pair]) occurrence[pair] = last_occurrence(pair == 0 ? confirmed : other, trace);
    if (!occurrence[pair] || occurrence[pair]->cut_short) return std::nullopt;  // two threads run it
    event[i] = occurrence[pair]->events[i % 2];
  }
  const auto thread_of = [&](std::size_t i) { return trace.events[event[i]].thread; };
  const auto address_of = [&](std::size_t i) { return trace.events[event[i]].address; };
  if (thread_of(0) == thread_of(1) || thread_of(2) == thread_of(3)) return std::nullopt;
  if ((thread_of(2) != thread_of(0) && thread_of(2) != thread_of(1)) ||
      (thread_of(3) != thread_of(0) && thread_of(3) != thread_of(1))) {
    return std::nullopt;  // not the same two threads
  }
  if (address_of(0) != address_of(1) || address_of(2) != address_of(3) || address_of(0) == address_of(2)) {
    return std::nullopt;  // not two pairs on two locations
  }
  // Order: each pair's own order, and each thread's program order; by trace position otherwise.
  const auto must_precede = [&](std::size_t a, std::size_t b) {
    if ((a == 0 && b == 1) || (a == 2 && b == 3)) return true;
    return thread_of(a) == thread_of(b) && event[a] < event[b];
  };
  std::vector<std::size_t> order;
  std::array<bool, 4> placed{};
  while (order.size() < 4) {
    std::optional<std::size_t> next;
    for (std::size_t i = 0; i < 4; ++i) {
      if (placed[i]) continue;
      bool ready = true;
      for (std::size_t j = 0; j < 4; ++j) {
        if (!placed[j] && j != i && must_precede(j, i)) ready = false;
      }
      if (ready && (!next || event[i] < event[*next])) next = i;
    }
    if (!next) return std::nullopt;  // the pairs' orders contradict the threads' program order
    placed[*next] = true;
    order.push_back(*next);
  }
  ForceDirective d = confirmed;
  d.count = 4;
  d.role_threads = 0;
  d.context = 0;
  const std::uint32_t first_thread = thread_of(order[0]);
  std::array<bool, 2> role_seen{};
  for (std::uint32_t k = 0; k < 4; ++k) {
    const std::size_t i = order[k];
    ForceStep step = steps[i];
    step.role = thread_of(i) == first_thread ? 0 : 1;
    step.location = i < 2 ? 0 : 1;
    step.occurrence = 0;
    if (!role_seen[step.role]) {
      role_seen[step.role] = true;
      step.occurrence = calls_up_to(trace, event[i], step);
      if (!bind_role(d, step.role, thread_of(i))) return std::nullopt;
    }
    d.steps[k] = step;
  }
  return d;
}

std::vector<ForceDirective> couplings(const ForceDirective& confirmed, const ForceDirective& other,
                                      const localize::Trace& trace) {
  // The two differ in the confirmed pair's order, so never come out the same.
  std::vector<ForceDirective> found;
  const auto add = [&](const ForceDirective& first) {
    if (const std::optional<ForceDirective> both = couple_pairs(first, other, trace)) found.push_back(*both);
  };
  add(confirmed);
  if (confirmed.count == 2) {
    ForceDirective reversed = confirmed;
    std::swap(reversed.steps[0], reversed.steps[1]);
    add(reversed);
  }
  return found;
}

std::string binding_text(const ForceDirective& d) {
  std::string text;
  for (std::uint32_t r = 0; r < kMaxForceRoles; ++r) {
    const std::uint32_t tid = bound_thread(d, r);
    if (tid == kNoBoundThread) continue;
    text += (text.empty() ? "role " : ", role ") + std::to_string(r + 1) + " = T" + std::to_string(tid);
    for (std::uint32_t i = 0; i < d.count; ++i) {
      if (d.steps[i].role == r && d.steps[i].occurrence != 0) {
        const std::uint8_t access = d.steps[i].access;
        const std::string what =
            access >= kForceSync ? sync_op_name(static_cast<SyncOp>(access - kForceSync)) : std::string("access");
        text += " (its " + ordinal(d.steps[i].occurrence) + " " + what + " at step " + std::to_string(i + 1) + ")";
        break;
      }
    }
  }
  return text.empty() ? "roles bind at first match" : text;
}

}  // namespace ctrlsched::driver

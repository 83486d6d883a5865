// ForcingStrategy (ctrlsched/forcing.h): a base strategy steered by a ForceDirective.
//
// Exact rules (docs/forcing.md explains why):
//  Order, while not completed:
//   1. A candidate "matches" step i when its pending access has the step's site (0 = any) and
//      kind (Any = read or write; an atomic read-modify-write counts as a write), and the step's
//      role fits: the role is bound to that thread, or the role is unbound and the thread has
//      no role yet. Roles bind when their first step is performed (observe), so different roles
//      are always different threads.
//   2. Immediacy: once step 0 was performed, the candidates matching the next step are the only
//      options (the inner strategy picks among them), so step i+1 follows step i as soon as a
//      thread can perform it.
//   3. Holds: otherwise a candidate that does not match the next step but matches a later one
//      is removed from the options ("held"); the inner strategy picks among the others.
//   3b. Also held, once step 0 was performed and until the order completed: a thread bound to
//      a role that is not the next step's, at ANY point (a sync operation too). Between its steps
//      a pattern's thread must not move on, or the pattern happens only on paper: check_then_act's
//      R1-W2-W1 fails only if the checking thread stops before it re-takes the lock and reads the
//      balance again; a predicted early read r→w fails only if r's thread acts on what it read
//      after w, not before.
//   3b'. With ForceDirective::hold_at_location, the partner of rule 3b is held only at accesses
//      to a bound location: it may publish or take locks first, which rule 7 needs when the
//      partner's next move is what lets the read's thread reach its read.
//   3c. Never held: a thread that owns a lock another thread is blocked on (holding it would
//      starve the waiter; ForceOutcome::starvation_skips counts these).
//   3d. Such an owner about to perform a later step records that step and where it took the
//      lock (ForceOutcome::starved_step, starved_lock_site): the caller may force the order
//      again with the owner held at that lock call, before it takes the lock.
//   4. Bounds: a thread held at hold_limit decisions since the last performed step is released
//      until the next step is performed (holds_dropped). If every candidate would be held,
//      nobody is: the inner strategy sees all of them (also counted in holds_dropped), so a
//      directive never deadlocks a run.
//   5. A step is performed when observe() sees the next step's access by a thread its role fits.
//   5b. Sync steps (access = kForceSync + SyncOp) match a thread stopped at that operation's
//      point (PendingKind::Sync with the op, the call site and the object as address) and are
//      performed by the operation's event (sync_op_of): a lock that blocks, a wait that starts.
//   6. Steps with the same `location` number access one address: the first of them performed
//      binds it, and later ones match only an access to that address. A pattern is about one
//      location (two for Locon's procedure III): bandwidth_order's W(h->bandwidth)→R(h->bandwidth)
//      must not be "completed" by a read through a NULL h.
//   7. A read step right after a write step of another role on the same location must read
//      that write: a write to the bound address by any thread between them breaks the order
//      (ForceOutcome::read_from_broken_*), the directive stops, not completed. dcl_registry's
//      W(constructor)→R(size) "completed" with the creator's fill in between is no dirty read.
//  SwitchAtEntry: when a thread enters a listed function (FuncEntry whose address is the step's
//   site) for the first time in the run, its next decision point that offers another thread
//   excludes it (once per function per run).
//  The directive is active (lease 0) until it completed (Order) or every function was entered
//  and its switch taken (SwitchAtEntry); after that every question goes to the inner strategy.
//  In context (ForceDirective::context, Order only): until the cut the inner ContextStrategy's
//   follower answers everything and rules 1-6 do not apply (no hold, no immediacy, no step
//   performed; occurrences are counted). The cut is the followed decision that runs
//   context_thread while it is about to perform context_step at its occurrence: following stops
//   there (ForceOutcome::context_reached), and when that access is the directive's step 0 it
//   happens at once, as in the reference run; otherwise the rules decide that very point. A
//   followed schedule that ends or stops fitting before the cut ends the context unreached. A
//   sync cut's occurrence counts the context thread's calls of that operation at that site, a
//   call that waited once (continues_blocked_call), as the reference binding counted them.
// Never allocates: every table is a fixed array member.
#include "ctrlsched/forcing.h"

#include "ctrlsched/sync_ops.h"

#include <algorithm>

namespace ctrlsched {
namespace {

bool event_is_access(EventKind kind) {
  return kind == EventKind::Read || kind == EventKind::Write || kind == EventKind::AtomicLoad ||
         kind == EventKind::AtomicStore || kind == EventKind::AtomicRmw;
}

bool event_writes(EventKind kind) {
  return kind == EventKind::Write || kind == EventKind::AtomicStore || kind == EventKind::AtomicRmw;
}

}  // namespace

bool valid_directive(const ForceDirective& d) {
  const auto kind = static_cast<ForceKind>(d.kind);
  if (kind != ForceKind::Order && kind != ForceKind::SwitchAtEntry) return false;
  if (d.count == 0 || d.count > kMaxForceSteps) return false;
  for (std::uint32_t i = 0; i < d.count; ++i) {
    const ForceStep& s = d.steps[i];
    if (kind == ForceKind::SwitchAtEntry && s.site == 0) return false;
    const bool sync_step = s.access > kForceSync && s.access < kForceSync + kSyncOps;
    if (kind == ForceKind::Order &&
        (s.role >= kMaxForceRoles || s.location >= kMaxForceSteps ||
         (s.access > static_cast<std::uint8_t>(ForceAccess::Entry) && !sync_step)))
      return false;
  }
  return true;
}

ForceDirective order_directive(std::initializer_list<ForceStep> steps, std::uint32_t hold_limit) {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.count = static_cast<std::uint32_t>(steps.size());  // too many: invalid, see valid_directive
  d.hold_limit = hold_limit;
  std::copy_n(steps.begin(), std::min<std::size_t>(steps.size(), kMaxForceSteps), d.steps);
  return d;
}

namespace {
ForceStep side_step(ForceSide side, std::uint8_t role) {
  return force_step(side.site, side.write ? ForceAccess::Write : ForceAccess::Read, role);
}
}  // namespace

ForceDirective pair_directive(ForceSide first, ForceSide second, std::uint32_t hold_limit) {
  return order_directive({side_step(first, 0), side_step(second, 1)}, hold_limit);
}

ForceDirective triple_directive(ForceSide first, ForceSide second, ForceSide third, std::uint32_t hold_limit) {
  return order_directive({side_step(first, 0), side_step(second, 1), side_step(third, 0)}, hold_limit);
}

ForceDirective switch_at_entry_directive(std::initializer_list<std::uint64_t> function_sites) {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::SwitchAtEntry);
  d.count = static_cast<std::uint32_t>(function_sites.size());
  std::uint32_t i = 0;
  for (std::uint64_t site : function_sites) {
    if (i == kMaxForceSteps) break;
    d.steps[i++] = force_step(site, ForceAccess::Entry, 0);
  }
  return d;
}

ForcingStrategy::ForcingStrategy(Strategy& inner, const ForceDirective& directive, ForceOutcome* publish,
                                 ContextStrategy* context)
    : inner_(inner),
      context_(context),
      directive_(directive),
      kind_(valid_directive(directive) ? static_cast<ForceKind>(directive.kind) : ForceKind::None),
      hold_limit_(directive.hold_limit != 0 ? directive.hold_limit : kDefaultHoldLimit),
      outcome_(publish != nullptr ? publish : &own_outcome_) {
  *outcome_ = ForceOutcome{};
  role_thread_.fill(kNoThread);
  thread_role_.fill(kNoRole);
  created_[0] = true;  // main
  if (kind_ != ForceKind::Order || directive_.context == 0) context_ = nullptr;
  if (context_ != nullptr && !context_->following()) context_ = nullptr;
  if (kind_ != ForceKind::Order) return;
  // Roles bound in advance (to the threads of a reference run, docs/forcing.md "Binding").
  for (std::uint32_t r = 0; r < kMaxForceRoles; ++r) {
    const std::uint32_t tid = bound_thread(directive_, r);
    if (tid == kNoBoundThread || tid >= kMaxThreads || thread_role_[tid] != kNoRole) continue;
    role_thread_[r] = tid;
    thread_role_[tid] = static_cast<std::uint8_t>(r);
    outcome_->role_thread[r] = static_cast<std::uint8_t>(tid + 1);
  }
}

void ForcingStrategy::on_thread_created(ThreadId child, ThreadId parent) {
  if (child < kMaxThreads) created_[child] = true;
  inner_.on_thread_created(child, parent);
}

bool ForcingStrategy::active() const {
  switch (kind_) {
    case ForceKind::Order:
      return outcome_->completed == 0 && outcome_->read_from_broken_step == 0;
    case ForceKind::SwitchAtEntry:
      return switch_pending_ != kNoThread ||
             std::any_of(entered_.begin(), entered_.begin() + directive_.count, [](bool e) { return !e; });
    case ForceKind::None:
      break;
  }
  return false;
}

ThreadId ForcingStrategy::next_thread(const SchedulingPoint& point) {
  last_step_ = point.step;
  if (context_ != nullptr && !context_->following() && outcome_->context_reached == 0) note_context_lost(point);
  if (in_context()) {
    // At a point the reference run left to a lease, its choice was the leased thread.
    const std::optional<ThreadId> followed = lease_cut_ ? std::optional<ThreadId>(point.current) : context_->follow(point);
    lease_cut_ = false;
    if (followed && !at_cut(point, *followed)) return counted(point, *followed);
    if (!followed) {
      note_context_lost(point);
    } else {
      reach_cut(point.step);
      // The reference run performed this access now; when it is step 0, so does this run.
      for (const Candidate& c : point.candidates) {
        if (c.tid == *followed && step_matches_pending(0, c)) return counted(point, *followed);
      }
    }
  }
  ThreadId chosen;
  if (kind_ == ForceKind::Order && active()) {
    chosen = order_choice(point);
  } else if (kind_ == ForceKind::SwitchAtEntry) {
    chosen = switch_choice(point);
  } else {
    chosen = inner_.next_thread(point);
  }
  return counted(point, chosen);
}

void ForcingStrategy::note_context_lost(const SchedulingPoint& point) {
  if (outcome_->context_lost != 0) return;
  outcome_->context_lost = 1;
  outcome_->context_step = point.step;
  if (const auto& lost = context_->lost()) {
    const std::size_t n = std::min(lost->what.size(), sizeof outcome_->context_lost_what - 1);
    std::copy_n(lost->what.data(), n, outcome_->context_lost_what);
    outcome_->context_lost_what[n] = '\0';
  }
}

ThreadId ForcingStrategy::counted(const SchedulingPoint& point, ThreadId chosen) {
  if (chosen != point.current && point.current_enabled && point.kind != PointKind::Yield) ++preemptions_;
  return chosen;
}

bool ForcingStrategy::is_cut(const Candidate& c) const {
  const ForceStep& cut = directive_.context_step;
  if (c.tid != directive_.context_thread) return false;
  if (cut.occurrence != 0 && context_seen_ + 1 != cut.occurrence) return false;
  if (cut.site != 0 && c.pending_site != cut.site) return false;
  if (cut.access >= kForceSync) return c.pending == PendingKind::Sync && c.pending_op == cut.access - kForceSync;
  switch (static_cast<ForceAccess>(cut.access)) {
    case ForceAccess::Read: return c.pending == PendingKind::Read;
    case ForceAccess::Write: return c.pending == PendingKind::Write;
    case ForceAccess::Any: return c.pending == PendingKind::Read || c.pending == PendingKind::Write;
    case ForceAccess::Entry: return false;
  }
  return false;
}

bool ForcingStrategy::at_cut(const SchedulingPoint& point, ThreadId chosen) const {
  for (const Candidate& c : point.candidates) {
    if (c.tid == chosen) return is_cut(c);
  }
  return false;
}

bool ForcingStrategy::cut_under_lease(const Candidate& self) {
  if (!in_context() || !is_cut(self)) return false;
  lease_cut_ = true;
  return true;
}

void ForcingStrategy::reach_cut(std::uint64_t step) {
  context_->stop_following();
  outcome_->context_reached = 1;
  outcome_->context_step = step;
}

ThreadId ForcingStrategy::order_choice(const SchedulingPoint& point) {
  const std::span<const Candidate> candidates = point.candidates;
  std::size_t count = 0;
  if (next_ > 0) {  // rule 2: the thread that can perform the next step goes now
    for (const Candidate& c : candidates) {
      if (step_matches_pending(next_, c)) filtered_[count++] = c;
    }
    if (count > 0) return inner_choice(point, count);
  }
  bool held_any = false;
  for (const Candidate& c : candidates) {
    if (!would_hold_lock_owner(c)) continue;
    ++outcome_->starvation_skips;  // rule 3c
    // The owner goes on to a later step out of order: say where it took the lock (rule 3d).
    if (const std::uint32_t step = later_step(c); step != kNoStep && outcome_->starved_lock_site == 0) {
      outcome_->starved_step = step;
      outcome_->starved_lock_site = c.owned_lock_site;
    }
  }
  for (const Candidate& c : candidates) {  // rule 3
    if (held(c)) {
      held_any = true;
    } else {
      filtered_[count++] = c;
    }
  }
  if (!held_any) return inner_.next_thread(point);
  if (count == 0) {  // rule 4: holding everyone would stop the run
    ++outcome_->holds_dropped;
    return inner_.next_thread(point);
  }
  ++outcome_->holds;
  // While the thread the next step is bound to does not exist yet, a hold waits for its creation
  // and does not use up the budget (up to kUnbornPartnerFactor budgets, so a partner that is
  // never created cannot stall a run that others keep going).
  const ThreadId partner = role_thread_[directive_.steps[next_].role];
  const bool partner_unborn = partner != kNoThread && partner < kMaxThreads && !created_[partner] &&
                              unborn_holds_ < kUnbornPartnerFactor * hold_limit_;
  if (partner_unborn) ++unborn_holds_;
  for (const Candidate& c : candidates) {
    if (!held(c) || partner_unborn) continue;
    if (++held_for_[c.tid] >= hold_limit_) {
      released_[c.tid] = true;
      ++outcome_->holds_dropped;
    }
  }
  return inner_choice(point, count);
}

ThreadId ForcingStrategy::switch_choice(const SchedulingPoint& point) {
  if (switch_pending_ == kNoThread || point.current != switch_pending_) return inner_.next_thread(point);
  switch_pending_ = kNoThread;
  if (!point.current_enabled) return inner_.next_thread(point);  // it switches anyway
  std::size_t count = 0;
  for (const Candidate& c : point.candidates) {
    if (c.tid != point.current) filtered_[count++] = c;
  }
  if (count == 0) return inner_.next_thread(point);
  ++outcome_->steps_done;
  if (outcome_->steps_done == directive_.count) {
    outcome_->completed = 1;
    outcome_->completed_step = point.step;
  }
  return inner_choice(point, count);
}

ThreadId ForcingStrategy::inner_choice(const SchedulingPoint& point, std::size_t count) {
  if (count == point.candidates.size()) return inner_.next_thread(point);
  const std::span<const Candidate> options(filtered_.data(), count);
  const bool current_offered =
      std::any_of(options.begin(), options.end(), [&](const Candidate& c) { return c.tid == point.current; });
  const SchedulingPoint narrowed{point.current, point.current_enabled && current_offered, point.kind, point.step,
                                 options};
  const ThreadId chosen = inner_.next_thread(narrowed);
  const bool offered = std::any_of(options.begin(), options.end(), [&](const Candidate& c) { return c.tid == chosen; });
  return offered ? chosen : options.front().tid;
}

bool ForcingStrategy::role_fits(const ForceStep& step, ThreadId tid) const {
  if (tid >= kMaxThreads) return false;
  const ThreadId bound = role_thread_[step.role];
  if (bound != kNoThread) return bound == tid;
  return thread_role_[tid] == kNoRole;
}

bool ForcingStrategy::step_matches_pending(std::uint32_t index, const Candidate& c) const {
  const ForceStep& s = directive_.steps[index];
  if (c.pending == PendingKind::None) return false;
  if (s.access >= kForceSync) {  // a sync step: the thread stopped at that operation, on that object
    if (c.pending != PendingKind::Sync || c.pending_op != s.access - kForceSync) return false;
    if ((s.site != 0 && s.site != c.pending_site) || elsewhere(s, c.pending_address)) return false;
    return role_fits(s, c.tid);
  }
  if (c.pending == PendingKind::Sync) return false;
  if (s.site != 0 && s.site != c.pending_site) return false;
  if (elsewhere(s, c.pending_address)) return false;
  if (!at_occurrence(index, c.tid)) return false;
  switch (static_cast<ForceAccess>(s.access)) {
    case ForceAccess::Any:
      break;
    case ForceAccess::Read:
      if (c.pending != PendingKind::Read) return false;
      break;
    case ForceAccess::Write:
      if (c.pending != PendingKind::Write) return false;
      break;
    case ForceAccess::Entry:
      return false;  // entries are not scheduling points: they can be observed, not held
  }
  return role_fits(s, c.tid);
}

bool ForcingStrategy::step_matches_event(std::uint32_t index, const TraceEvent& e) const {
  const ForceStep& s = directive_.steps[index];
  const auto kind = static_cast<EventKind>(e.kind);
  if (s.access >= kForceSync) {  // performed: the operation's event (a blocked lock or wait counts)
    if (static_cast<std::uint8_t>(sync_op_of(e)) != s.access - kForceSync) return false;
    if ((s.site != 0 && s.site != e.site) || elsewhere(s, e.address)) return false;
    return role_fits(s, e.thread);
  }
  switch (static_cast<ForceAccess>(s.access)) {
    case ForceAccess::Entry:
      return kind == EventKind::FuncEntry && e.address == s.site && role_fits(s, e.thread);
    case ForceAccess::Any:
      if (!event_is_access(kind)) return false;
      break;
    case ForceAccess::Read:
      if (!event_is_access(kind) || event_writes(kind)) return false;
      break;
    case ForceAccess::Write:
      if (!event_writes(kind)) return false;
      break;
  }
  if (s.site != 0 && s.site != e.site) return false;
  if (kind != EventKind::FuncEntry && elsewhere(s, e.address)) return false;
  if (!at_occurrence(index, e.thread)) return false;
  return role_fits(s, e.thread);
}

bool ForcingStrategy::at_occurrence(std::uint32_t index, ThreadId tid) const {
  const std::uint32_t wanted = directive_.steps[index].occurrence;
  if (wanted == 0) return true;
  return tid < kMaxThreads && site_seen_[tid][index] + 1 == wanted;
}

bool ForcingStrategy::elsewhere(const ForceStep& step, std::uint64_t address) const {
  const std::uint64_t bound = location_address_[step.location];
  return bound != 0 && bound != address;
}

std::uint32_t ForcingStrategy::later_step(const Candidate& c) const {
  for (std::uint32_t j = next_ + 1; j < directive_.count; ++j) {
    if (step_matches_pending(j, c)) return j;
  }
  return kNoStep;
}

bool ForcingStrategy::waits_for_partner(const Candidate& c) const {
  if (next_ == 0) return false;
  const std::uint8_t role = thread_role_[c.tid];
  if (role == kNoRole || directive_.steps[next_].role == role) return false;
  if (directive_.hold_at_location == 0) return true;
  return (c.pending == PendingKind::Read || c.pending == PendingKind::Write) && c.pending_address != 0 &&
         std::find(location_address_.begin(), location_address_.end(), c.pending_address) != location_address_.end();
}

bool ForcingStrategy::breaks_read_from(const TraceEvent& e) const {
  if (next_ == 0 || next_ >= directive_.count) return false;
  const ForceStep& read = directive_.steps[next_];
  const ForceStep& write = directive_.steps[next_ - 1];
  if (static_cast<ForceAccess>(read.access) != ForceAccess::Read ||
      static_cast<ForceAccess>(write.access) != ForceAccess::Write || read.location != write.location ||
      read.role == write.role) {
    return false;
  }
  const auto kind = static_cast<EventKind>(e.kind);
  const std::uint64_t address = location_address_[read.location];
  return address != 0 && event_is_access(kind) && event_writes(kind) && e.address == address;
}

bool ForcingStrategy::held(const Candidate& c) const {
  if (c.tid >= kMaxThreads || released_[c.tid] || c.owns_awaited_lock || step_matches_pending(next_, c)) return false;
  return later_step(c) != kNoStep || waits_for_partner(c);
}

bool ForcingStrategy::would_hold_lock_owner(const Candidate& c) const {
  if (!c.owns_awaited_lock || c.tid >= kMaxThreads || released_[c.tid] || step_matches_pending(next_, c)) return false;
  return later_step(c) != kNoStep || waits_for_partner(c);
}

void ForcingStrategy::advance(ThreadId tid, std::uint64_t address) {
  const ForceStep& s = directive_.steps[next_];
  std::uint64_t& location = location_address_[s.location];
  if (location == 0 && static_cast<ForceAccess>(s.access) != ForceAccess::Entry) location = address;
  if (role_thread_[s.role] == kNoThread) {
    role_thread_[s.role] = tid;
    thread_role_[tid] = s.role;
    outcome_->role_thread[s.role] = static_cast<std::uint8_t>(tid < 255 ? tid + 1 : 0);
  }
  ++next_;
  outcome_->steps_done = next_;
  held_for_.fill(0);
  released_.fill(false);
  if (next_ == directive_.count) {
    outcome_->completed = 1;
    outcome_->completed_step = last_step_;
  }
}

void ForcingStrategy::observe(const TraceEvent& e) {
  if (kind_ == ForceKind::Order) {
    // The cut's access performed while still following: its point had no choice (the only
    // runnable thread). The context ends with it, and the access counts as a step if it is one.
    if (in_context() && directive_.context_step.access < kForceSync && e.thread == directive_.context_thread &&
        event_is_access(static_cast<EventKind>(e.kind)) && e.site == directive_.context_step.site) {
      const std::uint32_t occurrence = directive_.context_step.occurrence;
      const auto access = static_cast<ForceAccess>(directive_.context_step.access);
      const bool writes = event_writes(static_cast<EventKind>(e.kind));
      const bool kind_fits = access == ForceAccess::Any || (access == ForceAccess::Write) == writes;
      if (kind_fits && (occurrence == 0 || context_seen_ + 1 == occurrence)) reach_cut(last_step_);
    }
    // A sync cut is the context thread's n-th call of the operation at that site; a call that
    // blocked counts once (continues_blocked_call), as bind_to_occurrence counted the reference's.
    const ForceStep& cut = directive_.context_step;
    const bool cut_call = in_context() && cut.access >= kForceSync && e.thread == directive_.context_thread &&
                          e.site == cut.site && static_cast<std::uint8_t>(sync_op_of(e)) == cut.access - kForceSync &&
                          !(context_previous_seen_ && continues_blocked_call(context_previous_, e));
    if (e.thread == directive_.context_thread && sync_op_of(e) != SyncOp::None) {
      context_previous_ = e;
      context_previous_seen_ = true;
    }
    if (cut_call && (cut.occurrence == 0 || context_seen_ + 1 == cut.occurrence)) reach_cut(last_step_);
    const bool followed = in_context();
    if (!followed && active()) {
      if (step_matches_event(next_, e)) {
        advance(e.thread, e.address);
      } else if (breaks_read_from(e)) {
        outcome_->read_from_broken_step = next_;
        outcome_->read_from_broken_thread = e.thread < 255 ? e.thread + 1 : 0;
        outcome_->read_from_broken_site = e.site;
      }
    }
    if (followed && e.thread == directive_.context_thread && e.site == cut.site &&
        (event_is_access(static_cast<EventKind>(e.kind)) || cut_call)) {
      ++context_seen_;
    }
    // Occurrences: this thread's accesses at each step's site so far (after matching, so the
    // event being performed is the (count + 1)-th).
    if (event_is_access(static_cast<EventKind>(e.kind)) && e.thread < kMaxThreads) {
      for (std::uint32_t i = 0; i < directive_.count; ++i) {
        if (directive_.steps[i].site == e.site) ++site_seen_[e.thread][i];
      }
    }
    return;
  }
  if (kind_ != ForceKind::SwitchAtEntry || static_cast<EventKind>(e.kind) != EventKind::FuncEntry) return;
  for (std::uint32_t k = 0; k < directive_.count; ++k) {
    if (!entered_[k] && directive_.steps[k].site == e.address) {
      entered_[k] = true;
      switch_pending_ = e.thread;
      return;
    }
  }
}

}  // namespace ctrlsched

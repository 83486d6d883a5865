// The lock-order cycle of a deadlock report (see lock_cycle.h).
#include "localize/lock_cycle.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"

namespace ctrlsched::driver {
namespace {

bool is_lock_wait(std::uint32_t kind) {
  const auto k = static_cast<WaitKind>(kind);
  return k == WaitKind::Mutex || k == WaitKind::Spin || k == WaitKind::RwlockRead || k == WaitKind::RwlockWrite;
}

std::uint64_t site_of_held(const BlockedThread& t, std::uint64_t object) {
  const std::uint32_t kept = std::min(t.held_count, kMaxHeldLocks);
  for (std::uint32_t k = 0; k < kept; ++k) {
    if (t.held[k].object == object) return t.held[k].site;
  }
  return 0;
}

}  // namespace

std::optional<LockCycle> find_lock_cycle(const DeadlockInfo& deadlock) {
  std::map<std::uint32_t, const BlockedThread*> waiting;  // thread → its lock wait
  const std::uint32_t reported = std::min<std::uint32_t>(deadlock.reported, kMaxReportedBlocked);
  for (std::uint32_t i = 0; i < reported; ++i) {
    const BlockedThread& t = deadlock.threads[i];
    if (is_lock_wait(t.wait_kind) && t.holder >= 0 && t.holder_exited == 0) waiting[t.thread] = &t;
  }
  // Follow "waits for a lock held by" from each thread in id order; the first walk that comes
  // back to a thread it visited has found the cycle (from that thread on).
  for (const auto& [start, unused] : waiting) {
    std::vector<std::uint32_t> path;
    std::uint32_t at = start;
    while (waiting.count(at) != 0 && std::find(path.begin(), path.end(), at) == path.end()) {
      path.push_back(at);
      at = static_cast<std::uint32_t>(waiting.at(at)->holder);
    }
    const auto loop = std::find(path.begin(), path.end(), at);
    if (loop == path.end()) continue;
    std::vector<std::uint32_t> members(loop, path.end());
    std::rotate(members.begin(), std::min_element(members.begin(), members.end()), members.end());
    LockCycle cycle;
    for (std::size_t i = 0; i < members.size(); ++i) {
      const BlockedThread& me = *waiting.at(members[i]);
      const BlockedThread& previous = *waiting.at(members[(i + members.size() - 1) % members.size()]);
      LockCycleThread t;
      t.thread = me.thread;
      t.holds = previous.object;
      t.holds_site = site_of_held(me, previous.object);
      t.waits_for = me.object;
      t.wait_site = me.wait_site;
      cycle.threads.push_back(t);
    }
    return cycle;
  }
  return std::nullopt;
}

std::optional<ForceDirective> lock_cycle_directive(const LockCycle& cycle, std::uint32_t hold_limit) {
  const std::size_t n = cycle.threads.size();
  if (n < 2 || n > kMaxForceRoles || 2 * n > kMaxForceSteps) return std::nullopt;
  for (const LockCycleThread& t : cycle.threads) {
    if (t.holds_site == 0 || t.wait_site == 0) return std::nullopt;
  }
  // Location i is the lock thread i holds; thread i waits for the next thread's, (i + 1) mod n
  // (find_lock_cycle). First every thread takes what it holds, in cycle order; then each asks
  // for the next one's lock, the last thread first, so the last request closes the cycle.
  const auto lock = static_cast<std::uint8_t>(SyncOp::Lock);
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.hold_limit = hold_limit;
  d.count = static_cast<std::uint32_t>(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto role = static_cast<std::uint8_t>(i);
    d.steps[i] = force_sync_step(cycle.threads[i].holds_site, lock, role);
    d.steps[i].location = static_cast<std::uint16_t>(i);
    const std::size_t asker = n - 1 - i;
    ForceStep& ask = d.steps[n + i];
    ask = force_sync_step(cycle.threads[asker].wait_site, lock, static_cast<std::uint8_t>(asker));
    ask.location = static_cast<std::uint16_t>((asker + 1) % n);
  }
  // Two threads are symmetric: whichever takes a lock first is role 1, and the cycle still
  // closes. From three on, roles bound at first match can pair a thread with the wrong lock (T3
  // taking its till second makes it role 2, which asks for T1's lock, not T3's real next one), so
  // each role is the report's thread (ThreadIds are creation indexes, the same in a forced run).
  if (n > 2) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!bind_role(d, static_cast<std::uint32_t>(i), cycle.threads[i].thread)) return std::nullopt;
    }
  }
  return d;
}

namespace {

// The index of the last event before `before` in which `thread` performed `kind` (Acquire: took,
// Block: waited for) on the lock `object` at `site`; trace.events.size() if there is none.
std::size_t last_lock_event(const localize::Trace& trace, std::size_t before, std::uint32_t thread, EventKind kind,
                            std::uint64_t object, std::uint64_t site) {
  for (std::size_t k = before; k-- > 0;) {
    const TraceEvent& e = trace.events[k];
    if (e.thread == thread && static_cast<EventKind>(e.kind) == kind && sync_op_of(e) == SyncOp::Lock &&
        e.address == object && e.site == site) {
      return k;
    }
  }
  return trace.events.size();
}

}  // namespace

ForceDirective order_as_in_trace(const ForceDirective& directive, const LockCycle& cycle, const localize::Trace& trace) {
  const std::size_t n = cycle.threads.size();
  const std::size_t none = trace.events.size();
  if (directive.count != 2 * n) return directive;
  // Step i (i < n) is thread i's hold, step n + k the request of thread n - 1 - k
  // (lock_cycle_directive); `at[i]` is where that step's event is in the trace.
  std::vector<std::size_t> at(2 * n, none);
  for (std::size_t i = 0; i < n; ++i) {
    const LockCycleThread& t = cycle.threads[i];
    const std::size_t ask = last_lock_event(trace, none, t.thread, EventKind::Block, t.waits_for, t.wait_site);
    if (ask == none) return directive;
    const std::size_t hold = last_lock_event(trace, ask, t.thread, EventKind::Acquire, t.holds, t.holds_site);
    if (hold == none) return directive;
    at[i] = hold;
    at[2 * n - 1 - i] = ask;
  }
  std::vector<std::size_t> order(2 * n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return at[a] < at[b]; });
  ForceDirective d = directive;
  for (std::size_t i = 0; i < order.size(); ++i) d.steps[i] = directive.steps[order[i]];
  return d;
}

bool is_half_of_longer_cycle(const ForceDirective& d, const LockCycle& cycle) {
  const std::size_t n = cycle.threads.size();
  const auto lock = static_cast<std::uint8_t>(kForceSync + static_cast<std::uint8_t>(SyncOp::Lock));
  if (n < 3 || d.kind != static_cast<std::uint32_t>(ForceKind::Order) || d.count != 2) return false;
  if (d.steps[0].access != lock || d.steps[1].access != lock || d.steps[0].role == d.steps[1].role) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const LockCycleThread& holder = cycle.threads[i];
    const LockCycleThread& waiter = cycle.threads[(i + n - 1) % n];  // waits for holder's lock
    if (d.steps[0].site == holder.holds_site && d.steps[1].site == waiter.wait_site) return true;
  }
  return false;
}

void qualify_refutation_by_cycle(ConfirmationResult& c, const LockCycle& cycle) {
  if (c.verdict != Verdict::Refuted) return;
  c.verdict = Verdict::Inconclusive;
  c.refuted = false;
  c.reason = "one lock's half of the lock-order cycle of " + std::to_string(cycle.threads.size()) +
             " threads: alone it cannot deadlock, the other threads' locks are free (fails " + std::to_string(c.failed) +
             "/" + std::to_string(c.completed) + " where it completed); the cycle is forced whole below";
}

std::vector<std::string> render_lock_cycle_text(const LockCycle& cycle, const RecordNames& names) {
  std::vector<std::string> lines;
  for (const LockCycleThread& t : cycle.threads) {
    std::string line = "T" + std::to_string(t.thread) + " holds " + names.location(t.holds);
    line += t.holds_site != 0 ? " (acquired at " + names.site(t.holds_site) + ")" : " (acquired at ?)";
    line += ", waits for " + names.location(t.waits_for) + " at " + names.site(t.wait_site);
    lines.push_back(std::move(line));
  }
  return lines;
}

nlohmann::ordered_json lock_cycle_json(const LockCycle& cycle, const RecordNames& names) {
  using Json = nlohmann::ordered_json;
  Json threads = Json::array();
  for (const LockCycleThread& t : cycle.threads) {
    threads.push_back(Json{{"thread", t.thread},
                           {"holds", names.location(t.holds)},
                           {"acquired_at", t.holds_site != 0 ? names.site(t.holds_site) : std::string("?")},
                           {"waits_for", names.location(t.waits_for)},
                           {"waits_at", names.site(t.wait_site)}});
  }
  std::string text;
  for (const std::string& line : render_lock_cycle_text(cycle, names)) text += (text.empty() ? "" : "; ") + line;
  return Json{{"text", text}, {"threads", std::move(threads)}};
}

}  // namespace ctrlsched::driver

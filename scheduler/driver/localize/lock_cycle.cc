// The lock-order cycle of a deadlock report (see lock_cycle.h).
#include "localize/lock_cycle.h"

#include <algorithm>
#include <map>

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
  if (cycle.threads.size() != 2) return std::nullopt;
  const LockCycleThread& first = cycle.threads[0];
  const LockCycleThread& second = cycle.threads[1];
  if (first.holds_site == 0 || second.holds_site == 0 || first.wait_site == 0 || second.wait_site == 0) return std::nullopt;
  const auto lock = static_cast<std::uint8_t>(SyncOp::Lock);
  // Location 0 is the first thread's lock (which the second waits for), 1 the second's.
  ForceStep steps[4] = {force_sync_step(first.holds_site, lock, 0), force_sync_step(second.holds_site, lock, 1),
                        force_sync_step(second.wait_site, lock, 1), force_sync_step(first.wait_site, lock, 0)};
  steps[1].location = steps[3].location = 1;
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.hold_limit = hold_limit;
  d.count = 4;
  std::copy(std::begin(steps), std::end(steps), d.steps);
  return d;
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

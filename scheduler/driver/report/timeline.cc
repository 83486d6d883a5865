// Steps of a traced run for the HTML report (see timeline.h).
#include "report/timeline.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "report/site_names.h"

namespace ctrlsched::driver {
namespace {

constexpr std::size_t kNoStep = static_cast<std::size_t>(-1);

bool is_join(const TraceEvent& e) { return e.aux == static_cast<std::uint16_t>(WaitKind::Join); }

// What a step says about one event: "read", "acquire mutex", "block on join T2", "thread-create T3".
std::string describe(const TraceEvent& e) {
  switch (localize::kind_of(e)) {
    case EventKind::Acquire:
    case EventKind::Release:
      return std::string(localize::event_kind_name(e.kind)) + " " + localize::wait_kind_name(e.aux);
    case EventKind::Block:
      return "block on " + localize::wait_kind_name(e.aux) +
             (is_join(e) ? " T" + std::to_string(e.address) : std::string());
    case EventKind::ThreadCreate:
    case EventKind::ThreadJoin:
      return std::string(localize::event_kind_name(e.kind)) + " T" + std::to_string(e.address);
    default:
      return std::string(localize::event_kind_name(e.kind));
  }
}

bool reads(EventKind k) { return k == EventKind::Read || k == EventKind::AtomicLoad || k == EventKind::AtomicRmw; }
bool timeline_writes(EventKind k) { return k == EventKind::Write || k == EventKind::AtomicStore || k == EventKind::AtomicRmw; }

// Which switches of the trace were preemptions, by the index of the Switch event (see
// interleaving.cc for the alignment of the switch log with the trace).
std::vector<bool> preemptions(const localize::Trace& trace, std::span<const SwitchPoint> switch_log) {
  std::vector<SwitchPoint> switches;
  for (const SwitchPoint& p : switch_log) {
    if (is_thread_switch(p)) switches.push_back(p);
  }
  std::vector<bool> preempted(trace.events.size(), false);
  std::size_t next = 0;
  for (std::size_t i = 0; i < trace.events.size() && next < switches.size(); ++i) {
    const TraceEvent& e = trace.events[i];
    if (localize::kind_of(e) != EventKind::Switch) continue;
    if (switches[next].thread != e.thread || switches[next].target != static_cast<ThreadId>(e.address)) break;
    preempted[i] = switches[next].switch_kind() == SwitchKind::Preempt;
    ++next;
  }
  return preempted;
}

// The threads whose last event is a block, with the holder of what they wait for: the last
// thread that acquired the object and did not release it since.
std::vector<BlockedAtEnd> blocked_at_end(const localize::Trace& trace, const std::vector<std::size_t>& step_of_event) {
  struct Last {
    std::size_t event = 0;
    bool blocked = false;
  };
  std::map<std::uint32_t, Last> last;  // by thread
  std::map<std::uint64_t, std::pair<std::uint32_t, std::size_t>> holder;  // object -> (thread, event)
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& e = trace.events[i];
    const EventKind kind = localize::kind_of(e);
    if (kind == EventKind::Switch || kind == EventKind::FuncEntry || kind == EventKind::FuncExit) continue;
    last[e.thread] = Last{i, kind == EventKind::Block};
    if (kind == EventKind::Acquire) holder[e.address] = {e.thread, i};
    if (kind == EventKind::Release) {
      auto it = holder.find(e.address);
      if (it != holder.end() && it->second.first == e.thread) holder.erase(it);
    }
  }
  std::vector<BlockedAtEnd> blocked;
  for (const auto& [thread, l] : last) {
    if (!l.blocked || step_of_event[l.event] == kNoStep) continue;
    const TraceEvent& e = trace.events[l.event];
    BlockedAtEnd b;
    b.thread = thread;
    b.step = step_of_event[l.event];
    if (is_join(e)) {
      b.waits_for = "join T" + std::to_string(e.address);
    } else {
      b.waits_for = localize::wait_kind_name(e.aux);
      if (auto it = holder.find(e.address); it != holder.end() && it->second.first != thread) {
        b.holder = it->second.first;
        if (step_of_event[it->second.second] != kNoStep) b.held_since = step_of_event[it->second.second];
      }
    }
    blocked.push_back(std::move(b));
  }
  return blocked;
}

}  // namespace

Timeline build_timeline(const localize::Trace& trace, std::span<const SwitchPoint> switch_log,
                        localize::Symbolizer& symbolizer, std::size_t limit) {
  Timeline timeline;
  timeline.handle = trace.handle;
  timeline.truncated = trace.truncated;
  SiteNames names(trace, symbolizer);
  std::map<std::tuple<std::string, std::uint32_t, std::string, std::string>, std::size_t> place_index;
  const std::vector<bool> preempted = preemptions(trace, switch_log);
  std::vector<std::size_t> step_of_event(trace.events.size(), kNoStep);

  bool switched = false, preemption = false;
  bool merge_allowed = false;  // the last step may take more events (no switch or block since)
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& e = trace.events[i];
    const EventKind kind = localize::kind_of(e);
    if (kind == EventKind::Switch) {
      timeline.threads = std::max<std::uint32_t>(timeline.threads, static_cast<std::uint32_t>(e.address) + 1);
      switched = true;
      preemption = preempted[i];
      merge_allowed = false;
      continue;
    }
    timeline.threads = std::max(timeline.threads, e.thread + 1);
    if (kind == EventKind::FuncEntry || kind == EventKind::FuncExit) continue;
    // A block is a step even without a site: the page shades the lane from it.
    if (e.site == 0 && kind != EventKind::Block) continue;
    const SiteName none;
    const SiteName& where = e.site == 0 ? none : names.at(e.site);
    const auto key = std::make_tuple(where.file, where.line, where.function, where.module);
    auto [it, inserted] = place_index.try_emplace(key, timeline.places.size());
    if (inserted) timeline.places.push_back(TimelinePlace{where.file, where.line, where.function, where.module});
    const std::string what = describe(e);
    if (merge_allowed && kind != EventKind::Block && !timeline.steps.empty()) {
      TimelineStep& last = timeline.steps.back();
      if (last.thread == e.thread && last.place == it->second) {
        if (last.what.size() < what.size() || last.what.compare(last.what.size() - what.size(), what.size(), what) != 0)
          last.what += ", " + what;
        last.reads = last.reads || reads(kind);
        last.writes = last.writes || timeline_writes(kind);
        step_of_event[i] = timeline.steps.size() - 1;
        continue;
      }
    }
    if (timeline.steps.size() == limit) {
      timeline.truncated = true;
      break;
    }
    TimelineStep step;
    step.thread = e.thread;
    step.what = what;
    step.place = it->second;
    step.switched_to = switched;
    step.preempted = switched && preemption;
    step.blocks = kind == EventKind::Block;
    step.reads = reads(kind);
    step.writes = timeline_writes(kind);
    step_of_event[i] = timeline.steps.size();
    timeline.steps.push_back(std::move(step));
    switched = preemption = false;
    merge_allowed = kind != EventKind::Block;
  }
  timeline.blocked_at_end = blocked_at_end(trace, step_of_event);
  return timeline;
}

namespace {

std::string timeline_base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "file:line function" of a place, as localization timeline_writes sites.
std::string site_text(const TimelinePlace& p) {
  std::string text = timeline_base_name(p.file) + ":" + std::to_string(p.line);
  if (!p.function.empty()) text += " " + p.function;
  return text;
}

bool direction_matches(const TimelineStep& step, const PatternAccess& a) {
  if (a.access == "R") return step.reads;
  if (a.access == "W") return step.writes;
  return true;  // a sync operation: its site says enough
}

}  // namespace

std::vector<std::size_t> find_pattern_steps(const Timeline& timeline, std::span<const PatternAccess> pattern) {
  if (pattern.empty()) return {};
  // at_site[k][p]: place p is the site of access k.
  std::vector<std::vector<bool>> at_site(pattern.size(), std::vector<bool>(timeline.places.size(), false));
  for (std::size_t p = 0; p < timeline.places.size(); ++p) {
    const std::string site = site_text(timeline.places[p]);
    for (std::size_t k = 0; k < pattern.size(); ++k) at_site[k][p] = site == pattern[k].site;
  }
  auto matches = [&](std::size_t step, std::size_t k) {
    const TimelineStep& s = timeline.steps[step];
    return at_site[k][s.place] && direction_matches(s, pattern[k]);
  };
  // Backwards from each candidate last access (latest first), taking for each earlier access the
  // latest step that fits the roles bound so far. Bounded: a run with thousands of candidates
  // gets the latest 256 tried.
  constexpr std::size_t kAttempts = 256;
  std::size_t attempts = 0;
  for (std::size_t end = timeline.steps.size(); end-- > 0 && attempts < kAttempts;) {
    if (!matches(end, pattern.size() - 1)) continue;
    ++attempts;
    std::map<std::uint32_t, std::uint32_t> thread_of_role;
    auto bind = [&](std::size_t step, const PatternAccess& a) {
      const std::uint32_t thread = timeline.steps[step].thread;
      if (auto it = thread_of_role.find(a.role); it != thread_of_role.end()) return it->second == thread;
      for (const auto& [role, t] : thread_of_role)
        if (t == thread) return false;  // another role has this thread
      thread_of_role[a.role] = thread;
      return true;
    };
    std::vector<std::size_t> found(pattern.size());
    found.back() = end;
    bind(end, pattern.back());
    bool complete = true;
    std::size_t at = end;
    for (std::size_t k = pattern.size() - 1; k-- > 0;) {
      bool hit = false;
      while (at-- > 0) {
        if (matches(at, k) && bind(at, pattern[k])) {  // bind changes nothing when it fails
          found[k] = at;
          hit = true;
          break;
        }
      }
      if (!hit) {
        complete = false;
        break;
      }
    }
    if (complete) return found;
  }
  return {};
}

std::vector<std::size_t> steps_at_pattern_sites(const Timeline& timeline, std::span<const PatternAccess> pattern) {
  std::vector<std::size_t> steps;
  std::vector<bool> place_matches(timeline.places.size(), false);
  for (std::size_t p = 0; p < timeline.places.size(); ++p) {
    const std::string site = site_text(timeline.places[p]);
    for (const PatternAccess& a : pattern) place_matches[p] = place_matches[p] || site == a.site;
  }
  for (std::size_t i = 0; i < timeline.steps.size(); ++i)
    if (place_matches[timeline.steps[i].place]) steps.push_back(i);
  return steps;
}

}  // namespace ctrlsched::driver

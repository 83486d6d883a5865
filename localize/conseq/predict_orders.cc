// Suspicious write→read orders (conseq.h, steps 2 and 3; ConSeq section 7.1).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "ctrlsched/localize/conseq.h"
#include "ctrlsched/localize/happens_before.h"
#include "locksets.h"
#include "reads_writes.h"

namespace ctrlsched::localize {

namespace {

// Happens-before without lock edges: lock Acquire/Release events become events that order
// nothing (a FuncExit of address 0), so indices stay those of the trace.
HappensBefore barrier_happens_before(const Trace& trace) {
  std::vector<TraceEvent> events = trace.events;
  for (TraceEvent& e : events) {
    const EventKind kind = kind_of(e);
    if ((kind == EventKind::Acquire || kind == EventKind::Release) && is_lock_kind(e.aux))
      e = TraceEvent{static_cast<std::uint8_t>(EventKind::FuncExit), 0, 0, e.thread, 0, 0, 0};
  }
  return HappensBefore(std::span<const TraceEvent>(events));
}

std::uint64_t low_bytes(std::uint64_t value, unsigned bytes) {
  return bytes >= 8 ? value : value & ((std::uint64_t{1} << (8 * bytes)) - 1);
}

class Predictor {
 public:
  Predictor(const Trace& trace, const PredictOptions& options)
      : trace_(trace), options_(options), hb_(barrier_happens_before(trace)), locks_(trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
      const TraceEvent& e = trace.events[i];
      if (!is_access(kind_of(e)) || e.address == 0) continue;
      accesses_[e.address].push_back(i);
      if (writes_memory(kind_of(e))) writes_[e.address].push_back(i);
    }
  }

  void add_candidates(const CriticalRead& critical, std::vector<OrderCandidate>& out) const {
    const std::size_t r = critical.event;
    if (r >= trace_.events.size()) return;
    const TraceEvent& read = trace_.events[r];
    if (!reads_memory(kind_of(read)) || read.address == 0) return;
    auto found = writes_.find(read.address);
    if (found == writes_.end()) return;
    const std::vector<std::size_t>& writes = found->second;
    const std::optional<std::size_t> source = last_write_before(writes, r);

    std::set<std::uint64_t> alternative_values;
    for (std::size_t w : writes) {
      if (w == r || w == source) continue;
      if (!could_read_from(w, r, writes)) continue;
      auto [value, known] = value_written(w);
      if (!keep_value(read, value, known)) continue;
      if (known) alternative_values.insert(low_bytes(value, read_bytes(read)));
      out.push_back(candidate(OrderKind::AlternativeWrite, r, w, critical.distance, value, known, source));
    }
    if (options_.early_reads && source) add_early_read(critical, *source, writes, alternative_values, out);
  }

 private:
  static unsigned read_bytes(const TraceEvent& e) { return e.size == 0 || e.size > 8 ? 8 : e.size; }

  static std::optional<std::size_t> last_write_before(const std::vector<std::size_t>& writes, std::size_t r) {
    auto it = std::ranges::lower_bound(writes, r);
    if (it == writes.begin()) return std::nullopt;
    return *std::prev(it);
  }

  // Algorithm 1 of the paper, for w' = w_alt and r.
  bool could_read_from(std::size_t w_alt, std::size_t r, const std::vector<std::size_t>& writes) const {
    if (hb_.ordered(r, w_alt)) return false;  // r happens before w'
    // Some w with w' → w → r always overwrites w' (same thread, or create/join/barrier order).
    for (auto it = std::ranges::upper_bound(writes, w_alt); it != writes.end() && *it < r; ++it)
      if (hb_.ordered(w_alt, *it) && hb_.ordered(*it, r)) return false;
    const std::uint32_t read_thread = trace_.events[r].thread;
    const std::uint32_t write_thread = trace_.events[w_alt].thread;
    if (read_thread == write_thread) return true;
    // Mutual exclusion (a): a write precedes r in r's critical section on L, w' holds L.
    if (auto before = same_thread_write(writes, r, read_thread, /*forward=*/false))
      if (share_section_excluding(r, *before, w_alt)) return false;
    // Mutual exclusion (b): a write follows w' in w''s critical section on L, r holds L.
    if (auto after = same_thread_write(writes, w_alt, write_thread, /*forward=*/true))
      if (share_section_excluding(w_alt, *after, r)) return false;
    return true;
  }

  // The nearest write to the same location by `thread` before (or after) event i.
  std::optional<std::size_t> same_thread_write(const std::vector<std::size_t>& writes, std::size_t i,
                                               std::uint32_t thread, bool forward) const {
    if (forward) {
      for (auto it = std::ranges::upper_bound(writes, i); it != writes.end(); ++it)
        if (trace_.events[*it].thread == thread) return *it;
    } else {
      for (auto it = std::ranges::lower_bound(writes, i); it != writes.begin();) {
        --it;
        if (trace_.events[*it].thread == thread) return *it;
      }
    }
    return std::nullopt;
  }

  // True if `a` and `b` are in one critical section on some lock L and `other` (another
  // thread's event) holds L in a way that excludes it.
  bool share_section_excluding(std::size_t a, std::size_t b, std::size_t other) const {
    for (const LockHold& h : locks_.held_at(a)) {
      auto hb = locks_.hold_on(b, h.object);
      if (!hb || hb->acquired_at != h.acquired_at) continue;
      auto ho = locks_.hold_on(other, h.object);
      if (ho && !(h.shared && ho->shared)) return true;
    }
    return false;
  }

  // What write w left at its address: the value the next access there saw.
  std::pair<std::uint64_t, bool> value_written(std::size_t w) const {
    if (!trace_.has_values) return {0, false};
    const std::vector<std::size_t>& all = accesses_.at(trace_.events[w].address);
    auto next = std::ranges::upper_bound(all, w);
    if (next == all.end()) return {0, false};
    return {trace_.events[*next].value, true};
  }

  bool keep_value(const TraceEvent& read, std::uint64_t value, bool known) const {
    if (!options_.equal_value_filter || !known || !trace_.has_values) return true;
    const unsigned bytes = read_bytes(read);
    return low_bytes(value, bytes) != low_bytes(read.value, bytes);
  }

  // r moved before its source write (from another thread): r reads what the location held
  // before it — before the first write of the source's critical section if r's thread also
  // holds that lock.
  void add_early_read(const CriticalRead& critical, std::size_t source, const std::vector<std::size_t>& writes,
                      const std::set<std::uint64_t>& alternative_values, std::vector<OrderCandidate>& out) const {
    const std::size_t r = critical.event;
    const TraceEvent& read = trace_.events[r];
    const std::uint32_t writer = trace_.events[source].thread;
    if (writer == read.thread) return;
    std::size_t first = source;
    if (auto lock = locks_.common_exclusive_lock(r, source)) {
      const std::size_t section = locks_.hold_on(source, *lock)->acquired_at;
      for (auto it = std::ranges::lower_bound(writes, source); it != writes.begin();) {
        --it;
        if (*it < section) break;
        if (trace_.events[*it].thread != writer) continue;
        auto h = locks_.hold_on(*it, *lock);
        if (h && h->acquired_at == section) first = *it;
      }
    }
    if (hb_.ordered(first, r)) return;
    const std::uint64_t value = trace_.events[first].value;
    const bool known = trace_.has_values;
    if (!keep_value(read, value, known)) return;
    // Already covered by a write w' → r that gives r the same value.
    if (known && alternative_values.contains(low_bytes(value, read_bytes(read)))) return;
    out.push_back(candidate(OrderKind::EarlyRead, r, first, critical.distance, value, known, source));
  }

  OrderCandidate candidate(OrderKind kind, std::size_t r, std::size_t w, std::uint32_t distance,
                           std::uint64_t value, bool known, std::optional<std::size_t> source) const {
    OrderCandidate c;
    c.kind = kind;
    c.read = r;
    c.write = w;
    c.distance = distance;
    c.address = trace_.events[r].address;
    c.value_read = trace_.events[r].value;
    c.value_possible = value;
    c.value_possible_known = known;
    c.source = source;
    return c;
  }

  const Trace& trace_;
  PredictOptions options_;
  HappensBefore hb_;
  Locksets locks_;
  std::map<std::uint64_t, std::vector<std::size_t>> accesses_;  // address → access events
  std::map<std::uint64_t, std::vector<std::size_t>> writes_;    // address → write events
};

ForceAccess force_access(EventKind kind) {
  switch (kind) {
    case EventKind::Read:
    case EventKind::AtomicLoad: return ForceAccess::Read;
    case EventKind::Write:
    case EventKind::AtomicStore: return ForceAccess::Write;
    default: return ForceAccess::Any;
  }
}

}  // namespace

std::vector<OrderCandidate> predict_orders(const Trace& trace, std::span<const CriticalRead> critical,
                                           const PredictOptions& options) {
  Predictor predictor(trace, options);
  std::vector<OrderCandidate> all;
  for (const CriticalRead& c : critical) predictor.add_candidates(c, all);
  std::ranges::sort(all, {}, [](const OrderCandidate& c) {
    return std::tuple(c.distance, c.read, static_cast<int>(c.kind), c.write);
  });

  // One candidate per directive: same kind, same sites and access kinds.
  using Key = std::tuple<int, std::uint64_t, int, std::uint64_t, int>;
  std::map<Key, std::size_t> position;
  std::vector<OrderCandidate> ranked;
  for (const OrderCandidate& c : all) {
    const TraceEvent& w = trace.events[c.write];
    const TraceEvent& r = trace.events[c.read];
    Key key{static_cast<int>(c.kind), w.site, w.kind, r.site, r.kind};
    auto [it, inserted] = position.emplace(key, ranked.size());
    if (inserted) ranked.push_back(c);
    else ++ranked[it->second].occurrences;
  }
  return ranked;
}

ForceDirective to_force_directive(const Trace& trace, const OrderCandidate& candidate,
                                  std::uint32_t hold_limit) {
  std::size_t first_event = candidate.read;
  std::size_t second_event = candidate.write;
  if (candidate.kind == OrderKind::AlternativeWrite) {
    first_event = candidate.write;
    second_event = candidate.read;
    if (candidate.source && trace.events[candidate.write].thread == trace.events[candidate.read].thread) {
      first_event = *candidate.source;
      second_event = candidate.write;
    }
  }
  const TraceEvent& first = trace.events[first_event];
  const TraceEvent& second = trace.events[second_event];
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.count = 2;
  d.hold_limit = hold_limit;
  d.steps[0].site = first.site;
  d.steps[0].access = static_cast<std::uint8_t>(force_access(kind_of(first)));
  d.steps[0].role = 0;
  d.steps[1].site = second.site;
  d.steps[1].access = static_cast<std::uint8_t>(force_access(kind_of(second)));
  d.steps[1].role = 1;
  return d;
}

std::string_view order_kind_name(OrderKind kind) {
  return kind == OrderKind::EarlyRead ? "early-read" : "alternative-write";
}

}  // namespace ctrlsched::localize

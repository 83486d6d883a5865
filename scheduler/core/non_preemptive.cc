// The non-preemptive default switch (see non_preemptive.h).
#include "non_preemptive.h"

namespace ctrlsched {

ThreadId non_preemptive_switch(const SchedulingPoint& point) {
  const std::span<const Candidate> candidates = point.candidates;
  if (point.kind == PointKind::Yield && point.current_enabled) {
    const Candidate* after = nullptr;
    const Candidate* first = nullptr;
    for (const Candidate& c : candidates) {
      if (c.timed_wait || c.tid == point.current) continue;
      if (!first) first = &c;
      if (!after && c.tid > point.current) after = &c;
    }
    if (after) return after->tid;
    if (first) return first->tid;
    for (const Candidate& c : candidates) {
      if (c.timed_wait) return c.tid;
    }
    return point.current;
  }
  for (const Candidate& c : candidates) {
    if (!c.timed_wait) return c.tid;
  }
  return candidates.front().tid;
}

}  // namespace ctrlsched

// Call-stack reconstruction; the representation is described in call_stacks.h.
#include "ctrlsched/localize/call_stacks.h"

namespace ctrlsched::localize {

CallStacks::CallStacks(std::span<const TraceEvent> events) {
  nodes_.push_back({0, 0, 0});  // node 0: the empty stack
  node_of_event_.reserve(events.size());
  std::vector<std::uint32_t> top;  // per thread: its current node
  for (const TraceEvent& e : events) {
    if (e.thread >= kMaxTraceThreads) {
      node_of_event_.push_back(0);
      continue;
    }
    if (e.thread >= top.size()) top.resize(e.thread + 1, 0);
    std::uint32_t& current = top[e.thread];
    switch (kind_of(e)) {
      case EventKind::FuncEntry:
        nodes_.push_back({e.site, current, nodes_[current].depth + 1});
        current = static_cast<std::uint32_t>(nodes_.size() - 1);
        node_of_event_.push_back(current);
        break;
      case EventKind::FuncExit:
        node_of_event_.push_back(current);  // still inside the function it leaves
        current = nodes_[current].parent;
        break;
      default:
        node_of_event_.push_back(current);
        break;
    }
  }
}

std::vector<std::uint64_t> CallStacks::stack_at(std::size_t i) const {
  std::vector<std::uint64_t> sites;
  if (i >= node_of_event_.size()) return sites;
  std::uint32_t node = node_of_event_[i];
  sites.reserve(nodes_[node].depth);
  for (; node != 0; node = nodes_[node].parent) sites.push_back(nodes_[node].site);
  return sites;
}

std::size_t CallStacks::depth_at(std::size_t i) const {
  return i < node_of_event_.size() ? nodes_[node_of_event_[i]].depth : 0;
}

}  // namespace ctrlsched::localize

// Each thread's call stack at every event, rebuilt from FuncEntry (site = the call site, i.e. the
// return address in the caller) and FuncExit events of instrumented code.
//
// Stored as a tree of frames (one node per FuncEntry, pointing to its caller's node) plus one
// node index per event, so memory is O(N) however deep the stacks are; stack_at(i) walks up the
// tree in O(depth). The stack at a FuncEntry event includes the frame it pushes; at a FuncExit
// event it still includes the frame being popped. A FuncExit on an empty stack (a function
// entered before tracing started) is ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

class CallStacks {
 public:
  explicit CallStacks(std::span<const TraceEvent> events);
  explicit CallStacks(const Trace& trace) : CallStacks(std::span(trace.events)) {}

  // The call sites of the frames active at event i, innermost first; empty out of range.
  std::vector<std::uint64_t> stack_at(std::size_t i) const;
  std::size_t depth_at(std::size_t i) const;

 private:
  struct Node {
    std::uint64_t site;
    std::uint32_t parent;  // node index; 0 = the empty stack (node 0 is a sentinel)
    std::uint32_t depth;
  };
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> node_of_event_;
};

}  // namespace ctrlsched::localize

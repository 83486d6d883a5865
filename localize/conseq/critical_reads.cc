// Critical-read selection (conseq.h, step 1): the shared reads close to a failure site.
#include <algorithm>
#include <map>

#include "ctrlsched/localize/conseq.h"
#include "ctrlsched/localize/shared_locations.h"
#include "reads_writes.h"

namespace ctrlsched::localize {

namespace {

struct Activation {
  bool failure_site = false;
  std::vector<std::size_t> recent;  // the last max_distance shared reads, oldest first
};

bool in_failure_function(std::uint64_t function_site, std::span<const FailureFunction> functions) {
  const std::uint32_t module = site_module(function_site);
  const std::uint64_t offset = site_offset(function_site);
  return std::ranges::any_of(functions, [&](const FailureFunction& f) {
    return f.module == module && f.low <= offset && offset < f.high;
  });
}

std::vector<CriticalRead> in_trace_order(const std::map<std::size_t, std::uint32_t>& distances) {
  std::vector<CriticalRead> out;
  out.reserve(distances.size());
  for (const auto& [event, distance] : distances) out.push_back({event, distance});
  return out;
}

}  // namespace

std::vector<CriticalRead> critical_reads_in_functions(const Trace& trace,
                                                      std::span<const FailureFunction> functions,
                                                      std::uint32_t max_distance) {
  if (max_distance == 0 || functions.empty()) return {};
  const SharedLocations shared = shared_locations(trace);
  std::map<std::uint32_t, std::vector<Activation>> stacks;  // per thread, innermost last
  std::map<std::size_t, std::uint32_t> distances;           // read event → smallest distance

  auto close = [&](const Activation& a) {
    if (!a.failure_site) return;
    for (std::size_t k = 0; k < a.recent.size(); ++k) {
      auto distance = static_cast<std::uint32_t>(a.recent.size() - k);
      auto [it, inserted] = distances.emplace(a.recent[k], distance);
      if (!inserted) it->second = std::min(it->second, distance);
    }
  };

  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& e = trace.events[i];
    const EventKind kind = kind_of(e);
    if (kind == EventKind::FuncEntry) {
      stacks[e.thread].push_back({in_failure_function(e.address, functions), {}});
    } else if (kind == EventKind::FuncExit) {
      auto& stack = stacks[e.thread];
      if (stack.empty()) continue;  // entered before tracing started
      close(stack.back());
      stack.pop_back();
    } else if (reads_memory(kind) && e.address != 0 && shared.contains(e.address)) {
      for (Activation& a : stacks[e.thread]) {
        if (!a.failure_site) continue;
        a.recent.push_back(i);
        if (a.recent.size() > max_distance) a.recent.erase(a.recent.begin());
      }
    }
  }
  for (const auto& [thread, stack] : stacks)
    for (const Activation& a : stack) close(a);  // activations the trace ends in
  return in_trace_order(distances);
}

std::vector<CriticalRead> critical_reads_before_failure(const Trace& trace, std::uint32_t failing_thread,
                                                        std::uint32_t max_distance) {
  const SharedLocations shared = shared_locations(trace);
  std::map<std::size_t, std::uint32_t> distances;
  std::uint32_t distance = 0;
  for (std::size_t i = trace.events.size(); i-- > 0 && distance < max_distance;) {
    const TraceEvent& e = trace.events[i];
    if (e.thread != failing_thread || !reads_memory(kind_of(e)) || e.address == 0) continue;
    if (!shared.contains(e.address)) continue;
    distances.emplace(i, ++distance);
  }
  return in_trace_order(distances);
}

}  // namespace ctrlsched::localize

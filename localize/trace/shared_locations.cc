// Shared locations: addresses that at least two threads access.
//
// Written as a range-v3 pipeline because it then reads like its definition: take the accesses,
// keep each distinct (address, thread) pair, group the pairs by address, keep the groups with
// two or more members. The hand-written loop with a map of thread sets says the same thing less
// plainly. Sorting the pairs (rather than hashing) also makes the result ordered for free.
#include "ctrlsched/localize/shared_locations.h"

#include <algorithm>
#include <utility>

#include <range/v3/action/sort.hpp>
#include <range/v3/action/unique.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/range/operations.hpp>
#include <range/v3/view/chunk_by.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>

namespace ctrlsched::localize {

bool SharedLocations::contains(std::uint64_t address) const {
  return std::binary_search(addresses_.begin(), addresses_.end(), address);
}

SharedLocations shared_locations(const Trace& trace) {
  namespace views = ranges::views;
  namespace actions = ranges::actions;
  using Access = std::pair<std::uint64_t, std::uint32_t>;  // (address, thread)

  auto accesses = trace.events
                | views::filter([](const TraceEvent& e) { return is_access(kind_of(e)) && e.address != 0; })
                | views::transform([](const TraceEvent& e) { return Access{e.address, e.thread}; })
                | ranges::to<std::vector>();
  accesses |= actions::sort | actions::unique;

  auto shared = accesses
              | views::chunk_by([](const Access& a, const Access& b) { return a.first == b.first; })
              | views::filter([](auto&& same_address) { return ranges::distance(same_address) >= 2; })
              | views::transform([](auto&& same_address) { return ranges::front(same_address).first; })
              | ranges::to<std::vector>();
  return SharedLocations(std::move(shared));
}

}  // namespace ctrlsched::localize

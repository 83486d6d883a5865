// The shared locations of a trace: addresses accessed (Read, Write or atomic) by at least two
// different threads. Everything else is thread-local as far as this run shows, so the dump can
// hide it (DumpOptions::only_shared) and analyses can skip it.
//
// Locations are exact start addresses of accesses: an 8-byte write at x and a 4-byte read at
// x + 4 are different locations. Address 0 (an atomic fence) is never a location.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

class SharedLocations {
 public:
  SharedLocations() = default;
  explicit SharedLocations(std::vector<std::uint64_t> sorted_unique)
      : addresses_(std::move(sorted_unique)) {}

  bool contains(std::uint64_t address) const;
  // Ascending.
  const std::vector<std::uint64_t>& addresses() const { return addresses_; }
  std::size_t size() const { return addresses_.size(); }

 private:
  std::vector<std::uint64_t> addresses_;
};

SharedLocations shared_locations(const Trace& trace);

}  // namespace ctrlsched::localize

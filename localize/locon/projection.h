// One run's pairs seen at one level: each distinct projected key with its representative entry
// (the first entry that projects to it, so its index is the key's occurrence order).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ctrlsched/localize/locon.h"

namespace ctrlsched::localize::locon {

class Projection {
 public:
  Projection(const RunPairs& run, Level level);

  bool contains(const PairKey& key) const { return first_.contains(key); }
  // The representative entry's index (the key's occurrence order); key must be contained.
  std::uint32_t order(const PairKey& key) const { return first_.at(key); }
  const Pair& representative(const PairKey& key) const { return run_->pairs[order(key)]; }
  // Keys in occurrence order.
  const std::vector<PairKey>& keys() const { return keys_; }

 private:
  const RunPairs* run_;
  std::map<PairKey, std::uint32_t> first_;
  std::vector<PairKey> keys_;
};

std::vector<Projection> project(const std::vector<RunPairs>& runs, Level level);

}  // namespace ctrlsched::localize::locon

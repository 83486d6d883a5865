// The search step shared by ddmin (ddmin.h) and the shift search (shift_search.h): among
// candidate configurations in a fixed order, the first one that fails, testing them in batches
// (for parallel runs) and never testing one twice.
//
// The answer does not depend on the batch size: a batch holds the next untested candidates in
// order, and the scan stops at the first failing one in order, so the same candidate is found as
// by testing one at a time (only more of the later ones may have been run). A budget bounds the
// number of tests; it is spent in candidate order too, so it is also independent of the batch.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <vector>

namespace ctrlsched::driver {

template <typename Config>
class FirstFailing {
 public:
  using Test = std::function<std::vector<bool>(const std::vector<Config>&)>;

  FirstFailing(std::size_t batch, Test test, std::uint64_t budget = std::numeric_limits<std::uint64_t>::max())
      : batch_(std::max<std::size_t>(batch, 1)), test_(std::move(test)), budget_(budget) {}

  std::optional<std::size_t> operator()(const std::vector<Config>& candidates) {
    std::size_t begin = 0;
    while (begin < candidates.size()) {
      std::vector<Config> pending;
      std::size_t end = begin;
      for (; end < candidates.size() && pending.size() < batch_; ++end) {
        const Config& c = candidates[end];
        if (known_.contains(c) || std::find(pending.begin(), pending.end(), c) != pending.end()) continue;
        if (known_.size() + pending.size() == budget_) break;
        pending.push_back(c);
      }
      run(pending);
      for (std::size_t i = begin; i < end; ++i) {
        const auto it = known_.find(candidates[i]);
        if (it == known_.end()) return std::nullopt;  // the budget ran out before it
        if (it->second) return i;
      }
      if (end == begin) return std::nullopt;
      begin = end;
    }
    return std::nullopt;
  }

  bool fails(const Config& c) { return (*this)(std::vector<Config>{c}).has_value(); }
  std::uint64_t tests() const { return known_.size(); }
  bool exhausted() const { return known_.size() >= budget_; }

 private:
  void run(const std::vector<Config>& pending) {
    if (pending.empty()) return;
    const std::vector<bool> results = test_(pending);
    for (std::size_t i = 0; i < pending.size(); ++i) known_[pending[i]] = i < results.size() && results[i];
  }

  std::size_t batch_;
  Test test_;
  std::uint64_t budget_;
  std::map<Config, bool> known_;
};

}  // namespace ctrlsched::driver

// Delta debugging (see ddmin.h).
#include "modes/ddmin.h"

#include <algorithm>
#include <map>
#include <optional>

#include "modes/first_failing.h"

namespace ctrlsched::driver {
namespace {

using Tester = FirstFailing<Configuration>;

// `c` cut into n contiguous parts of sizes differing by at most one.
std::vector<Configuration> split(const Configuration& c, std::size_t n) {
  std::vector<Configuration> parts;
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = c.begin() + static_cast<std::ptrdiff_t>(i * c.size() / n);
    const auto last = c.begin() + static_cast<std::ptrdiff_t>((i + 1) * c.size() / n);
    parts.emplace_back(first, last);
  }
  return parts;
}

Configuration without(const Configuration& c, const Configuration& part) {
  Configuration rest;
  std::set_difference(c.begin(), c.end(), part.begin(), part.end(), std::back_inserter(rest));
  return rest;
}

// C(n, k), saturating at `limit` + 1.
std::uint64_t binomial(std::uint64_t n, std::uint64_t k, std::uint64_t limit) {
  std::uint64_t result = 1;
  for (std::uint64_t i = 1; i <= k; ++i) {
    result = result * (n - k + i) / i;  // exact: a product of i consecutive numbers divides by i!
    if (result > limit) return limit + 1;
  }
  return result;
}

// All k-subsets of {0 .. n-1} in lexicographic order.
std::vector<Configuration> subsets(std::size_t n, std::size_t k) {
  std::vector<Configuration> all;
  Configuration c(k);
  for (std::size_t i = 0; i < k; ++i) c[i] = i;
  while (true) {
    all.push_back(c);
    std::size_t i = k;
    while (i > 0 && c[i - 1] == n - k + i - 1) --i;
    if (i == 0) return all;
    ++c[i - 1];
    for (std::size_t j = i; j < k; ++j) c[j] = c[j - 1] + 1;
  }
}

// The exhaustive search after ddmin (see ddmin.h).
Configuration smaller_failing(std::size_t count, Configuration found, std::uint64_t budget, Tester& tester) {
  for (std::size_t size = 1; size < found.size(); ++size) {
    const std::uint64_t needed = binomial(count, size, budget);
    if (needed > budget) break;
    budget -= needed;
    const std::vector<Configuration> candidates = subsets(count, size);
    if (const std::optional<std::size_t> hit = tester(candidates)) return candidates[*hit];
  }
  return found;
}

}  // namespace

DdminResult ddmin(std::size_t count, std::size_t batch, const BatchTest& test, std::uint64_t exhaustive_budget) {
  Tester tester(batch, test);
  Configuration c(count);
  for (std::size_t i = 0; i < count; ++i) c[i] = i;
  if (count > 0 && tester.fails({})) return {{}, tester.tests()};

  std::size_t n = 2;
  while (c.size() >= 2) {
    const std::vector<Configuration> parts = split(c, n);
    std::vector<Configuration> candidates = parts;
    if (n > 2) {  // with two parts each complement is the other part
      for (const Configuration& part : parts) candidates.push_back(without(c, part));
    }
    if (const std::optional<std::size_t> found = tester(candidates)) {
      c = candidates[*found];
      n = *found < n ? 2 : std::max<std::size_t>(n - 1, 2);
    } else if (n < c.size()) {
      n = std::min(n * 2, c.size());
    } else {
      break;
    }
  }

  // 1-minimality: with non-monotonic failures the last round may leave a removable element.
  for (bool removed = true; removed && !c.empty();) {
    std::vector<Configuration> singles;
    for (const std::size_t element : c) singles.push_back(without(c, {element}));
    const std::optional<std::size_t> found = tester(singles);
    removed = found.has_value();
    if (removed) c = singles[*found];
  }
  if (exhaustive_budget > 0) c = smaller_failing(count, std::move(c), exhaustive_budget, tester);
  return {c, tester.tests()};
}

}  // namespace ctrlsched::driver

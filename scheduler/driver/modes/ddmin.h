// Delta debugging over a set of elements (Zeller and Hildebrandt, "Simplifying and Isolating
// Failure-Inducing Input", 2002), as Choi and Zeller applied it to thread schedules: here the
// elements are the preemptions of a failing run and the test runs the program with a subset.
//
// Pure: the test comes in as a function that decides a batch of configurations at once, so a
// caller can run them in parallel. Results are independent of the batch size: at every stage the
// configuration taken is the first failing one in ddmin's order (subsets, then complements), as
// in the sequential algorithm, whatever else the batch decided. Failures need not be monotonic:
// nothing is inferred about a configuration that was not tested.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ctrlsched::driver {

// Sorted indices of the elements kept (0 .. count-1).
using Configuration = std::vector<std::size_t>;

// Returns, for each configuration, whether it still fails (the same way). Deterministic.
using BatchTest = std::function<std::vector<bool>(const std::vector<Configuration>&)>;

struct DdminResult {
  Configuration minimal;   // fails; removing any single element of it makes it pass
  std::uint64_t tests = 0; // distinct configurations tested (each at most once)
};

// Minimizes the full configuration {0 .. count-1}, which the caller knows fails (it is never
// tested here). Tests the empty configuration first, runs ddmin, then removes single elements
// until none can be removed (1-minimality, also when ddmin's last granularity missed one).
// `batch` (>= 1) is the most configurations handed to `test` at once.
//
// 1-minimal is not minimum: a failure may need two elements of the full set although ddmin ended
// with three others. With `exhaustive_budget` > 0, ddmin's result (size k) is followed by a search
// of all configurations of sizes 1, 2, ..., k-1 in that order, each size in lexicographic order,
// as long as the number of configurations of the next size fits in what is left of the budget
// (counted in configurations, tested or cached). The first failing one found is the result: then
// it is the smallest failing configuration there is, when the search got that far.
DdminResult ddmin(std::size_t count, std::size_t batch, const BatchTest& test, std::uint64_t exhaustive_budget = 0);

}  // namespace ctrlsched::driver

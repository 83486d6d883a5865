// ddmin over abstract test functions (ddmin.h): exact results on monotonic and non-monotonic
// failure predicates, 1-minimality, and independence of the batch size.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "ctrlsched/prng.h"
#include "modes/ddmin.h"

using ctrlsched::driver::Configuration;
using ctrlsched::driver::ddmin;

namespace {

bool holds(const Configuration& c, std::size_t e) { return std::binary_search(c.begin(), c.end(), e); }

// Counts calls and checks no configuration is tested twice.
struct CountingTest {
  explicit CountingTest(std::function<bool(const Configuration&)> f) : fails(std::move(f)) {}
  std::function<bool(const Configuration&)> fails;
  std::set<Configuration> seen;
  std::uint64_t runs = 0;
  bool repeated = false;
  std::vector<bool> operator()(const std::vector<Configuration>& batch) {
    std::vector<bool> out;
    for (const Configuration& c : batch) {
      ++runs;
      repeated = repeated || !seen.insert(c).second;
      out.push_back(fails(c));
    }
    return out;
  }
};

ctrlsched::driver::DdminResult run_ddmin(std::size_t count, std::size_t batch, CountingTest& test) {
  return ddmin(count, batch, [&](const std::vector<Configuration>& b) { return test(b); });
}

}  // namespace

TEST_CASE("ddmin finds the two elements a monotonic failure needs", "[ddmin]") {
  for (const std::size_t batch : {1u, 2u, 5u, 16u}) {
    CountingTest test{[](const Configuration& c) { return holds(c, 3) && holds(c, 7); }};
    const auto result = run_ddmin(10, batch, test);
    CHECK(result.minimal == Configuration{3, 7});
    CHECK(result.tests == test.runs);
    CHECK_FALSE(test.repeated);
  }
}

TEST_CASE("ddmin returns the empty configuration when it fails too, after one test", "[ddmin]") {
  CountingTest test{[](const Configuration&) { return true; }};
  const auto result = run_ddmin(6, 1, test);
  CHECK(result.minimal.empty());
  CHECK(result.tests == 1);
}

TEST_CASE("ddmin with a single element keeps it when the empty configuration passes", "[ddmin]") {
  CountingTest test{[](const Configuration& c) { return !c.empty(); }};
  const auto result = run_ddmin(1, 1, test);
  CHECK(result.minimal == Configuration{0});
  CHECK(result.tests == 1);
}

TEST_CASE("ddmin on a non-monotonic failure: a subset fails although its supersets pass", "[ddmin]") {
  // {0,1,2,3} fails, {1} fails, nothing else: the halves {0,1} and {2,3} pass, so ddmin has to
  // go down to quarters, where it finds {1}.
  const auto fails = [](const Configuration& c) { return c == Configuration{0, 1, 2, 3} || c == Configuration{1}; };
  CountingTest sequential{fails};
  const auto one = run_ddmin(4, 1, sequential);
  CHECK(one.minimal == Configuration{1});
  CHECK(one.tests == 5);  // {}, {0,1}, {2,3}, {0}, {1}
  CountingTest parallel{fails};
  const auto four = run_ddmin(4, 4, parallel);
  CHECK(four.minimal == Configuration{1});
  CHECK(four.tests == 7);  // {}, {0,1}, {2,3}, then {0} {1} {2} {3} in one batch
}

TEST_CASE("ddmin takes a failing complement and keeps going", "[ddmin]") {
  // Fails iff 0 and 5 are both in, or the configuration is {2, 4, 5} exactly.
  const auto fails = [](const Configuration& c) { return (holds(c, 0) && holds(c, 5)) || c == Configuration{2, 4, 5}; };
  CountingTest test{fails};
  const auto result = run_ddmin(6, 1, test);
  CHECK(result.minimal == Configuration{0, 5});
}

TEST_CASE("ddmin results are 1-minimal and independent of the batch size", "[ddmin]") {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::size_t count = 1 + seed % 12;
    const auto fails = [&](const Configuration& c) {
      if (c.size() == count) return true;
      std::uint64_t h = seed * 0x9e3779b97f4a7c15ull + 1;
      for (const std::size_t e : c) h = (h ^ e) * 0x100000001b3ull;
      return ctrlsched::Prng(h).below(3) == 0;  // arbitrary, far from monotonic
    };
    CountingTest a{fails}, b{fails}, c{fails};
    const auto r1 = run_ddmin(count, 1, a);
    const auto r3 = run_ddmin(count, 3, b);
    const auto r8 = run_ddmin(count, 8, c);
    INFO("seed " << seed);
    CHECK(r1.minimal == r3.minimal);
    CHECK(r1.minimal == r8.minimal);
    CHECK(fails(r1.minimal));
    for (const std::size_t e : r1.minimal) {
      Configuration smaller;
      std::copy_if(r1.minimal.begin(), r1.minimal.end(), std::back_inserter(smaller), [&](std::size_t x) { return x != e; });
      CHECK_FALSE(fails(smaller));
    }
    CHECK_FALSE(a.repeated);
    CHECK_FALSE(c.repeated);
  }
}

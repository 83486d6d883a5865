// The PRNG is the root of determinism: these golden values pin SplitMix64, xoshiro256** and the
// bounded mapping, so any change to them (which would silently remap every seed) fails here.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "ctrlsched/prng.h"

using ctrlsched::Prng;

TEST_CASE("splitmix64 matches the published reference outputs for seed 1234567", "[prng]") {
  std::uint64_t state = 1234567;
  CHECK(ctrlsched::splitmix64(state) == 6457827717110365317ull);
  CHECK(ctrlsched::splitmix64(state) == 3203168211198807973ull);
  CHECK(ctrlsched::splitmix64(state) == 9817491932198370423ull);
}

TEST_CASE("xoshiro256** seeded by SplitMix64 gives pinned outputs", "[prng]") {
  // Computed once with this implementation and cross-checked with an independent Python model of
  // the reference C code (xoshiro.di.unimi.it); pinned so future changes are caught.
  Prng seed42(42);
  CHECK(seed42.next() == 1546998764402558742ull);
  CHECK(seed42.next() == 6990951692964543102ull);
  CHECK(seed42.next() == 12544586762248559009ull);
  CHECK(seed42.next() == 17057574109182124193ull);
  CHECK(seed42.next() == 18295552978065317476ull);

  Prng seed0(0);
  CHECK(seed0.next() == 11091344671253066420ull);
  CHECK(seed0.next() == 13793997310169335082ull);
  CHECK(seed0.next() == 1900383378846508768ull);
}

TEST_CASE("below maps outputs with Lemire's multiply-shift, pinned", "[prng]") {
  Prng prng(42);
  const std::array<std::uint64_t, 8> expected = {0, 3, 6, 9, 9, 7, 7, 8};
  for (const std::uint64_t value : expected) CHECK(prng.below(10) == value);
}

TEST_CASE("below rejects biased draws, pinned", "[prng]") {
  // With bound 2^63 + 1 about half of all raw outputs fall in the rejected zone, so these values
  // (from an independent Python model of the algorithm) only come out if rejection works.
  Prng prng(42);
  const std::uint64_t bound = (1ull << 63) + 1;
  const std::array<std::uint64_t, 6> expected = {9147776489032658738ull, 7099593415032875292ull,
                                                 6633989454467100377ull, 7022439175346172479ull,
                                                 2681029139591840946ull, 7388145106668446555ull};
  for (const std::uint64_t value : expected) CHECK(prng.below(bound) == value);
}

TEST_CASE("the same seed gives the same stream, different seeds differ", "[prng]") {
  Prng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.next();
    REQUIRE(x == b.next());
    differs = differs || x != c.next();
  }
  CHECK(differs);
}

TEST_CASE("below(1) is always 0", "[prng]") {
  Prng prng(99);
  for (int i = 0; i < 1000; ++i) REQUIRE(prng.below(1) == 0);
}

TEST_CASE("below stays in range for awkward bounds", "[prng]") {
  Prng prng(5);
  for (const std::uint64_t bound : {2ull, 3ull, 7ull, 1000ull, (1ull << 63) + 1, ~0ull}) {
    for (int i = 0; i < 2000; ++i) REQUIRE(prng.below(bound) < bound);
  }
}

TEST_CASE("below is roughly uniform (chi-square over 60000 draws)", "[prng]") {
  constexpr std::uint64_t kBuckets = 6;
  constexpr int kDraws = 60000;
  Prng prng(2024);
  std::array<int, kBuckets> counts{};
  for (int i = 0; i < kDraws; ++i) ++counts[prng.below(kBuckets)];
  const double expected = static_cast<double>(kDraws) / kBuckets;
  double chi_square = 0;
  for (const int count : counts) chi_square += (count - expected) * (count - expected) / expected;
  // 5 degrees of freedom: the 99.9% quantile is 20.5. A biased mapping (e.g. next() % 6 with a
  // broken generator, or off-by-one buckets) lands far above.
  CHECK(chi_square < 20.5);
  for (const int count : counts) CHECK(count > 0);
}

TEST_CASE("one_in(n) fires about once in n", "[prng]") {
  Prng prng(11);
  int hits = 0;
  for (int i = 0; i < 80000; ++i) hits += prng.one_in(8) ? 1 : 0;
  CHECK(hits > 9500);
  CHECK(hits < 10500);
  for (int i = 0; i < 100; ++i) REQUIRE(prng.one_in(1));
}

// The seeded generator behind every randomized decision: xoshiro256** seeded by SplitMix64, and
// Lemire's multiply-shift mapping to a bounded integer.
//
// Why fixed algorithms: a seed must name the same schedule on every machine and standard library,
// so nothing here may depend on std::*_distribution or on implementation-defined behaviour. The
// golden values in tests/unit/core_prng_test.cc pin the output; changing this file changes every
// recorded seed. Never allocates (it runs inside the preloaded shim).
#include "ctrlsched/prng.h"

namespace ctrlsched {
namespace {

constexpr std::uint64_t rotate_left(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Prng::Prng(std::uint64_t seed) {
  std::uint64_t seeder = seed;
  for (std::uint64_t& word : state_) word = splitmix64(seeder);
}

std::uint64_t Prng::next() {
  const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

// Lemire, "Fast Random Integer Generation in an Interval" (2019): the high word of x * bound is
// uniform in [0, bound) once the low words below 2^64 mod bound are rejected.
std::uint64_t Prng::below(std::uint64_t bound) {
  if (bound == 0) return 0;  // contract violation; answer something harmless instead of dividing by 0
  unsigned __int128 product = static_cast<unsigned __int128>(next()) * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    while (low < threshold) {
      product = static_cast<unsigned __int128>(next()) * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

}  // namespace ctrlsched

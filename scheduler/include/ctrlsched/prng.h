// The seeded pseudo-random generator behind every randomized decision.
//
// Why our own: determinism is the product. std::*_distribution output differs between standard
// libraries, so the algorithm (xoshiro256**, state seeded by SplitMix64) and the mapping to a
// bounded integer (Lemire's multiply-shift with rejection) are fixed here and tested against
// known values. Never allocates; safe to use inside the shim.
#pragma once

#include <cstdint>

namespace ctrlsched {

class Prng {
 public:
  explicit Prng(std::uint64_t seed);

  // Next raw 64-bit output of xoshiro256**.
  std::uint64_t next();

  // Uniform integer in [0, bound); bound must be > 0. Unbiased (rejection), identical everywhere.
  std::uint64_t below(std::uint64_t bound);

  // True with probability 1/n (n > 0).
  bool one_in(std::uint64_t n) { return below(n) == 0; }

 private:
  std::uint64_t state_[4];
};

// SplitMix64 step, exposed for seeding and for tests.
std::uint64_t splitmix64(std::uint64_t& state);

}  // namespace ctrlsched

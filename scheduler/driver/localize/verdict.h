// The verdict on a forced pattern, from the runs in which its whole order happened
// (docs/forcing.md, "Verdicts and their statistics"). Pure, so every threshold is unit-tested.
//
//   unrealized    the order completed in fewer than kMinCompletedRuns forced runs: forcing could
//                 not make it happen, so the runs say nothing about it (the reason says which
//                 thread never reached which step);
//   confirmed     among the completed runs, failures the same way are significantly more frequent
//                 than the baseline rate (one-sided exact binomial test, p < kVerdictAlpha) and at
//                 least kCauseFailureRate of them failed, and the pattern is not a symptom;
//   refuted       among the completed runs, failures are significantly rarer than
//                 kCauseFailureRate (one-sided binomial, p < kVerdictAlpha) and not significantly
//                 above the baseline: the order happened, and it does not cause this failure; and
//                 still so when every run that failed the same way before the order completed is
//                 counted as a completed, failing run (those runs never reached the order because
//                 the failure came first, so the completed runs are the ones where it did not:
//                 without them the sample is biased towards passing); and still so when the
//                 completed runs that failed another way (an assertion, fatal signal or exit of
//                 the program's own, at another site) are counted as failures too: an order after
//                 which the program fails, differently, is not shown harmless;
//   inconclusive  anything else (e.g. it raises the failure rate but does not make it reliable,
//                 or a symptom that fails whenever it happens).
#pragma once

#include <cstdint>
#include <string_view>

namespace ctrlsched::driver {

inline constexpr double kVerdictAlpha = 0.01;
// A cause, forced, must bring the failure back in at least half of the runs where it happened.
inline constexpr double kCauseFailureRate = 0.5;
// The least n at which both decisions are possible at kVerdictAlpha: 0/n refutes a 50% cause only
// from n = 7 (0.5^7 = 0.0078), and n/n confirms against any baseline up to 50% from n = 7 too.
inline constexpr std::uint64_t kMinCompletedRuns = 7;

enum class Verdict { Confirmed, Refuted, Unrealized, Inconclusive };
std::string_view verdict_name(Verdict v);

// P(X >= k) for X ~ Binomial(n, p): exact, by summing the terms in log space.
double binomial_at_least(std::uint64_t k, std::uint64_t n, double p);
// P(X <= k) for X ~ Binomial(n, p).
double binomial_at_most(std::uint64_t k, std::uint64_t n, double p);

struct VerdictEvidence {
  std::uint64_t completed = 0;  // forced runs in which the whole order happened
  std::uint64_t failed = 0;     // of those, failed the same way as the original
  double baseline_rate = 0;     // plain runs' same-way failure rate
  bool symptom = false;         // the pattern happens only once the failure is determined
  std::uint64_t failed_before = 0;  // forced runs that failed the same way before the order completed
  std::uint64_t failed_otherwise = 0;  // completed runs that failed another way (assertion, signal, exit)
};

struct VerdictDecision {
  Verdict verdict = Verdict::Unrealized;
  double p_above_baseline = 1;  // P(X >= failed | completed, baseline)
  double p_below_cause = 1;     // P(X <= failed | completed, kCauseFailureRate)
  // P(X <= failed + failed_before | completed + failed_before, kCauseFailureRate): the refutation's
  // test with the runs that failed before the order counted as failures of it.
  double p_below_cause_counting_before = 1;
  // P(X <= failed + failed_otherwise | completed, kCauseFailureRate): the refutation's test with
  // the completed runs' other failures counted as failures.
  double p_below_cause_counting_otherwise = 1;
};

VerdictDecision decide_verdict(const VerdictEvidence& evidence);

}  // namespace ctrlsched::driver

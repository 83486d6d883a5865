// Verdict statistics (see verdict.h).
#include "localize/verdict.h"

#include <algorithm>
#include <cmath>

namespace ctrlsched::driver {
namespace {

// log of C(n, i) p^i (1-p)^(n-i); p strictly between 0 and 1.
double log_term(std::uint64_t i, std::uint64_t n, double p) {
  const double dn = static_cast<double>(n), di = static_cast<double>(i);
  return std::lgamma(dn + 1) - std::lgamma(di + 1) - std::lgamma(dn - di + 1) + di * std::log(p) +
         (dn - di) * std::log1p(-p);
}

double sum_terms(std::uint64_t from, std::uint64_t to, std::uint64_t n, double p) {
  double sum = 0;
  for (std::uint64_t i = from; i <= to; ++i) sum += std::exp(log_term(i, n, p));
  return std::min(sum, 1.0);
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Confirmed: return "confirmed";
    case Verdict::Refuted: return "refuted";
    case Verdict::Unrealized: return "unrealized";
    case Verdict::Inconclusive: return "inconclusive";
  }
  return "inconclusive";
}

double binomial_at_least(std::uint64_t k, std::uint64_t n, double p) {
  if (k == 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  return sum_terms(k, n, n, p);
}

double binomial_at_most(std::uint64_t k, std::uint64_t n, double p) {
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  return sum_terms(0, k, n, p);
}

VerdictDecision decide_verdict(const VerdictEvidence& e) {
  VerdictDecision d;
  if (e.completed < kMinCompletedRuns) return d;  // unrealized
  const std::uint64_t failed = std::min(e.failed, e.completed);
  d.p_above_baseline = binomial_at_least(failed, e.completed, std::clamp(e.baseline_rate, 0.0, 1.0));
  d.p_below_cause = binomial_at_most(failed, e.completed, kCauseFailureRate);
  d.p_below_cause_counting_before =
      binomial_at_most(failed + e.failed_before, e.completed + e.failed_before, kCauseFailureRate);
  d.p_below_cause_counting_otherwise =
      binomial_at_most(failed + std::min(e.failed_otherwise, e.completed - failed), e.completed, kCauseFailureRate);
  const bool above_baseline = d.p_above_baseline < kVerdictAlpha;
  const bool reliable = static_cast<double>(failed) >= kCauseFailureRate * static_cast<double>(e.completed);
  if (above_baseline && reliable && !e.symptom) {
    d.verdict = Verdict::Confirmed;
  } else if (d.p_below_cause < kVerdictAlpha && d.p_below_cause_counting_before < kVerdictAlpha &&
             d.p_below_cause_counting_otherwise < kVerdictAlpha && !above_baseline) {
    d.verdict = Verdict::Refuted;
  } else {
    d.verdict = Verdict::Inconclusive;
  }
  return d;
}

}  // namespace ctrlsched::driver

// Following a recorded schedule and wording the first place a run leaves it (see
// recorded_schedule.h). The texts are what a user reads after "replay diverged", so each names
// the recorded decision and the options the run actually had, on one line.
#include "recorded_schedule.h"

#include <charconv>
#include <string_view>

namespace ctrlsched {
namespace {

// Divergence texts are cut to this length (the run record holds 512 bytes).
constexpr std::size_t kTextCapacity = 400;
constexpr std::string_view kCut = " ...";

std::string_view kind_name(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::Schedule: return "Schedule";
    case DecisionKind::Wake: return "Wake";
    case DecisionKind::Spurious: return "Spurious";
    case DecisionKind::Lease: return "Lease";
  }
  return "unknown";
}

// Appends to a string whose capacity was reserved, never growing it (so never allocating).
class BoundedText {
 public:
  explicit BoundedText(std::string& text) : text_(text) { text_.clear(); }

  BoundedText& operator<<(std::string_view part) {
    if (full_) return *this;
    if (text_.size() + part.size() + kCut.size() > kTextCapacity) {
      text_.append(kCut);
      full_ = true;
    } else {
      text_.append(part);
    }
    return *this;
  }

  BoundedText& operator<<(std::uint64_t number) {
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, number);
    return *this << std::string_view(digits, static_cast<std::size_t>(result.ptr - digits));
  }

  BoundedText& operator<<(Decision d) {
    const char letter[1] = {decision_letter(d.kind)};
    return *this << std::string_view(letter, 1) << std::uint64_t{d.value};
  }

  BoundedText& thread(ThreadId tid) { return *this << "T" << std::uint64_t{tid}; }

  // The request's options: "T0 T1" (threads) or "for T3" (a spurious-wakeup question).
  BoundedText& options(const DecisionRequest& request) {
    switch (request.kind) {
      case DecisionKind::Schedule:
        for (std::size_t i = 0; i < request.candidates.size(); ++i) {
          if (i > 0) *this << " ";
          thread(request.candidates[i].tid);
        }
        break;
      case DecisionKind::Wake:
        for (std::size_t i = 0; i < request.waiters.size(); ++i) {
          if (i > 0) *this << " ";
          thread(request.waiters[i]);
        }
        break;
      case DecisionKind::Spurious:
        (*this << "for ").thread(request.waiter);
        break;
      case DecisionKind::Lease:
        for (std::size_t i = 0; i < request.candidates.size(); ++i) {
          if (i > 0) *this << " ";
          thread(request.candidates[i].tid);
        }
        break;
    }
    return *this;
  }

  // "Schedule among T0 T1", "Wake among T1 T2", "Spurious for T3".
  BoundedText& request(const DecisionRequest& request) {
    *this << kind_name(request.kind) << (request.kind == DecisionKind::Spurious ? " " : " among ");
    return options(request);
  }

 private:
  std::string& text_;
  bool full_ = false;
};

}  // namespace

RecordedSchedule::RecordedSchedule(std::vector<Decision> decisions) : decisions_(std::move(decisions)) {
  text_.reserve(kTextCapacity);
}

std::optional<Decision> RecordedSchedule::take(const DecisionRequest& request) {
  if (diverged()) return std::nullopt;
  if (next_ == decisions_.size()) {
    BoundedText text(text_);
    text << "schedule ended after " << std::uint64_t{decisions_.size()}
         << (decisions_.size() == 1 ? " decision" : " decisions") << " but the run asked for another (";
    text.request(request) << ")";
    diverge(next_, request.step);
    return std::nullopt;
  }
  const Decision recorded = decisions_[next_];
  if (recorded.kind != request.kind) {
    BoundedText(text_) << "recorded a " << kind_name(recorded.kind) << " decision but the run asked for a "
                       << kind_name(request.kind) << " decision";
    diverge(next_, request.step);
    return std::nullopt;
  }
  ++next_;
  return recorded;
}

std::optional<Decision> RecordedSchedule::take_lease() {
  if (diverged() || next_ == decisions_.size() || decisions_[next_].kind != DecisionKind::Lease)
    return std::nullopt;
  return decisions_[next_++];
}

void RecordedSchedule::reject(Decision recorded, const DecisionRequest& request) {
  BoundedText text(text_);
  text << "recorded " << recorded;
  switch (request.kind) {
    case DecisionKind::Schedule:
      (text << " (run ").thread(recorded.value) << ") but the candidates were ";
      text.options(request);
      break;
    case DecisionKind::Wake:
      text << " but the waiters were ";
      text.options(request);
      break;
    case DecisionKind::Spurious:
      text << " but a spurious-wakeup decision is P0 or P1";
      break;
    case DecisionKind::Lease:
      text << " but a lease is never 0";
      break;
  }
  diverge(next_ - 1, request.step);
}

void RecordedSchedule::mismatch(Decision recorded, Decision actual, const DecisionRequest& request) {
  BoundedText text(text_);
  text << "recorded " << recorded << " but the run decided " << actual << " (";
  text.request(request) << ")";
  diverge(next_ - 1, request.step);
}

void RecordedSchedule::diverge(std::uint64_t decision_index, std::uint64_t step) {
  divergence_.emplace(Divergence{decision_index, step, std::move(text_)});
}

}  // namespace ctrlsched

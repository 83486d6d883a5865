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

RecordedSchedule::RecordedSchedule(std::vector<Decision> decisions)
    : decisions_(std::move(decisions)), count_(decisions_.size()) {
  text_.reserve(kTextCapacity);
}

RecordedSchedule::RecordedSchedule(std::span<const std::uint8_t> encoded) : encoded_(encoded), in_place_(true) {
  text_.reserve(kTextCapacity);
  std::size_t pos = 0, count = 0;
  while (pos < encoded_.size()) {
    if (!decode_decision(encoded_, pos)) return;  // malformed: count_ stays 0
    ++count;
  }
  count_ = count;
  if (count_ > 0) current_ = *decode_decision(encoded_, encoded_pos_);
}

Decision RecordedSchedule::peek() const { return in_place_ ? current_ : decisions_[next_]; }

void RecordedSchedule::advance() {
  ++next_;
  if (in_place_ && next_ < count_) current_ = *decode_decision(encoded_, encoded_pos_);
}

std::optional<Decision> RecordedSchedule::take(const DecisionRequest& request) {
  if (diverged()) return std::nullopt;
  if (at_end()) {
    BoundedText text(text_);
    text << "schedule ended after " << std::uint64_t{count_}
         << (count_ == 1 ? " decision" : " decisions") << " but the run asked for another (";
    text.request(request) << ")";
    diverge(next_, request.step);
    return std::nullopt;
  }
  const Decision recorded = peek();
  if (recorded.kind != request.kind) {
    BoundedText(text_) << "recorded a " << kind_name(recorded.kind) << " decision but the run asked for a "
                       << kind_name(request.kind) << " decision";
    diverge(next_, request.step);
    return std::nullopt;
  }
  advance();
  return recorded;
}

std::optional<Decision> RecordedSchedule::take_lease() {
  if (diverged() || at_end() || peek().kind != DecisionKind::Lease) return std::nullopt;
  const Decision lease = peek();
  advance();
  return lease;
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

// The shift search after ddmin (shift_search.h): the exact candidates of a round, and searches on
// synthetic failure predicates over preemption sets.
#include <catch2/catch.hpp>

#include <algorithm>

#include "modes/shift_search.h"

using namespace ctrlsched;
using driver::Preemptions;

namespace {

SwitchPoint preempt(ThreadId thread, std::uint64_t point, ThreadId target) {
  return make_switch_point(SwitchKind::Preempt, thread, point, target);
}
SwitchPoint free_switch(ThreadId thread, std::uint64_t point, ThreadId target) {
  return make_switch_point(SwitchKind::Free, thread, point, target);
}
const SwitchPoint kRider = free_switch(kNoThread, 0, kNoThread);

bool has_preempt_at(const Preemptions& set, ThreadId thread, std::uint64_t point) {
  return std::any_of(set.begin(), set.end(), [&](const SwitchPoint& p) {
    return p.switch_kind() == SwitchKind::Preempt && p.thread == thread && p.point == point;
  });
}

driver::ShiftResult search(Preemptions start, std::uint64_t budget, std::size_t batch,
                           const std::function<bool(const Preemptions&)>& fails, std::uint64_t* runs) {
  return driver::shift_search(std::move(start), 2, budget, batch, [&](const std::vector<Preemptions>& sets) {
    std::vector<bool> out;
    for (const Preemptions& s : sets) out.push_back(fails(s));
    *runs += sets.size();
    return out;
  });
}

}  // namespace

TEST_CASE("a shift round tries drops, delays, moves with and without the riders, in that order", "[shift]") {
  const Preemptions current = {preempt(1, 5, 2), preempt(2, 3, 1), kRider};
  const std::vector<Preemptions> expected = {
      {preempt(2, 3, 1)},                                     // drop the first, and the riders
      {preempt(1, 5, 2)},                                     // drop the second, and the riders
      {preempt(2, 3, 1), free_switch(1, 6, 2), kRider},       // the first becomes a free switch
      {preempt(1, 5, 2), free_switch(2, 4, 1), kRider},       // the second does
      {preempt(2, 4, 1), kRider}, {preempt(2, 2, 1), kRider},  // drop the first, move the second
      {preempt(1, 6, 2), kRider}, {preempt(1, 4, 2), kRider},  // drop the second, move the first
      {preempt(2, 4, 1)}, {preempt(2, 2, 1)}, {preempt(1, 6, 2)}, {preempt(1, 4, 2)},
  };
  CHECK(driver::shifted_candidates(current, 1) == expected);
}

TEST_CASE("the shift search reaches a smaller set by moving a preemption", "[shift]") {
  // Fails with T1 preempted at its point 7 and T2 at 3; the run only had T1 at 5.
  const Preemptions start = {preempt(1, 5, 2), preempt(2, 3, 1), preempt(3, 9, 1)};
  const auto fails = [&](const Preemptions& s) {
    return (has_preempt_at(s, 1, 7) && has_preempt_at(s, 2, 3)) || s == start;
  };
  std::uint64_t runs_one = 0, runs_five = 0;
  const driver::ShiftResult one = search(start, 1000, 1, fails, &runs_one);
  const driver::ShiftResult five = search(start, 1000, 5, fails, &runs_five);
  const Preemptions expected = {preempt(1, 7, 2), preempt(2, 3, 1)};
  CHECK(one.preemptions == expected);
  CHECK(five.preemptions == expected);
  CHECK(one.tests == runs_one);
  CHECK(five.tests == runs_five);
}

TEST_CASE("the shift search keeps the set when nothing smaller fails or the budget is spent", "[shift]") {
  const Preemptions start = {preempt(1, 5, 2), preempt(2, 3, 1)};
  std::uint64_t runs = 0;
  const auto only_start = [&](const Preemptions& s) { return s == start; };
  const driver::ShiftResult none = search(start, 1000, 2, only_start, &runs);
  CHECK(none.preemptions == start);
  CHECK(none.tests == driver::shifted_candidates(start, 2).size());

  runs = 0;
  const auto anything = [](const Preemptions&) { return true; };
  const driver::ShiftResult spent = search(start, 0, 2, anything, &runs);
  CHECK(spent.preemptions == start);
  CHECK(runs == 0);
}

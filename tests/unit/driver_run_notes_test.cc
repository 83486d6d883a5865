// The notes a run carries (runs/run_notes.h): spin preemptions, model simplifications, and how
// they join with the watchdog's note.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <memory>

#include "runs/run_notes.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

std::unique_ptr<RunRecord> empty_record() {
  auto record = std::make_unique<RunRecord>();
  std::memset(record.get(), 0, sizeof(RunRecord));
  record->shim_started = 1;
  return record;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a run with nothing to note has no note") {
  auto r = empty_record();
  CHECK(run_notes(*r, {}).empty());
  CHECK(spin_note(*r, {}).empty());
  CHECK(model_notes(*r).empty());
}

TEST_CASE("the spin note names the thread, the budget, where and how often, and the build") {
  auto r = empty_record();
  r->spin.count = 3;
  r->spin.thread = 2;
  r->spin.budget_us = 2000;
  std::snprintf(r->spin.location.text, sizeof r->spin.location.text, "/bin/t+0x40");
  const std::string note = spin_note(*r, {});
  INFO(note);
  CHECK(note.rfind("T2 ran 2 ms without a scheduling point while other threads waited and was preempted at "
                   "/bin/t+0x40 (3 times)",
                   0) == 0);
  CHECK(contains(note, "not fully controlled"));
  CHECK(contains(note, "built with ctrlsched-cc"));
  r->instrumented = 1;
  CHECK(contains(spin_note(*r, {}), "that code is not instrumented"));
  r->spin.count = 1;
  r->spin.budget_us = 500;
  CHECK(contains(spin_note(*r, {}), "ran 500 µs without"));
  CHECK_FALSE(contains(spin_note(*r, {}), "times)"));
}

TEST_CASE("model notes and the watchdog's note join with '; '") {
  auto r = empty_record();
  r->model_notes.flags = kNoteAsyncCancel | kNotePriorityMutex;
  const std::string models = model_notes(*r);
  CHECK(contains(models, "asynchronous cancellation is not modelled"));
  CHECK(contains(models, "; priority-inheritance/priority-protect mutexes are explored as plain mutexes"));
  r->uncontrolled.count = 1;
  r->uncontrolled.thread = 1;
  r->uncontrolled.syscall = -1;
  const std::string all = run_notes(*r, {});
  CHECK(all.rfind("the watchdog released T1, blocked outside the model: not reproducible bit for bit, the released "
                  "thread ran uncontrolled; asynchronous cancellation", 0) == 0);
}

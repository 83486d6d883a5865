#include "runs/run_notes.h"

#include "runs/failure_details.h"

namespace ctrlsched::driver {
namespace {

void append(std::string& notes, const std::string& note) {
  if (note.empty()) return;
  if (!notes.empty()) notes += "; ";
  notes += note;
}

std::string budget_text(std::uint64_t budget_us) {
  if (budget_us % 1000 == 0) return std::to_string(budget_us / 1000) + " ms";
  return std::to_string(budget_us) + " µs";
}

}  // namespace

std::string spin_note(const RunRecord& record, const ClassifyContext& context) {
  const SpinInfo& s = record.spin;
  if (s.count == 0) return {};
  std::string note = "T" + std::to_string(s.thread) + " ran " + budget_text(s.budget_us) +
                     " without a scheduling point while other threads waited and was preempted";
  const std::string location = record_text(s.location.text);
  if (!location.empty()) note += " at " + locate(context, location).text;
  if (s.count > 1) note += " (" + std::to_string(s.count) + " times)";
  note += ": the moment was chosen by time, so the run is not fully controlled and replays bit for bit "
          "only if the thread was spin-waiting for another one";
  note += record.instrumented != 0
              ? " (that code is not instrumented: its accesses are not scheduling points)"
              : " (not instrumented: built with ctrlsched-cc, its accesses become scheduling points and "
                "such a loop is explored like any other code, with no preemption by time)";
  return note;
}

std::string model_notes(const RunRecord& record) {
  std::string notes;
  const std::uint32_t flags = record.model_notes.flags;
  if (flags & kNoteAsyncCancel) {
    append(notes,
           "asynchronous cancellation is not modelled: a cancel sent to a thread with "
           "PTHREAD_CANCEL_ASYNCHRONOUS took effect at its next cancellation point, as if deferred");
  }
  if (flags & kNotePriorityMutex) {
    append(notes,
           "priority-inheritance/priority-protect mutexes are explored as plain mutexes: ctrlsched "
           "ignores thread priorities (the strategy decides who runs)");
  }
  return notes;
}

std::string run_notes(const RunRecord& record, const ClassifyContext& context) {
  std::string notes = uncontrolled_note(record, context);
  append(notes, spin_note(record, context));
  append(notes, model_notes(record));
  return notes;
}

}  // namespace ctrlsched::driver

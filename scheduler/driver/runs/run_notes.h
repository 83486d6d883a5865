// The note a run carries when it was not fully controlled or used something the model treats in
// a simplified way: threads the watchdog released (blocked outside the model), threads preempted
// for spinning without a scheduling point, asynchronous cancellation, priority mutexes. Notes
// never change the outcome; they say why a run may not replay bit for bit or what was ignored.
#pragma once

#include <string>

#include "ctrlsched/run_record.h"
#include "runs/outcome.h"

namespace ctrlsched::driver {

// A note about threads preempted for spinning without a scheduling point, or "".
std::string spin_note(const RunRecord& record, const ClassifyContext& context);
// Notes about simplified parts of the model the run used (ModelNotes), or "".
std::string model_notes(const RunRecord& record);
// Every note of the run, joined with "; " ("" if none).
std::string run_notes(const RunRecord& record, const ClassifyContext& context);

}  // namespace ctrlsched::driver

// Writing outcomes into the run record and ending the run.
//
// The record is shared memory: whatever is written survives the process. Functions marked
// [[noreturn]] end the test process right away (the driver classifies the run from the record).
#pragma once

#include <cstddef>

#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"
#include "thread_table.h"

namespace ctrlsched::shim {

// Exit status of a run the shim ended itself; the record says why.
inline constexpr int kShimEndedStatus = 86;

void copy_text(char* dst, std::size_t size, const char* src);
void record_assertion(const char* message, const char* expression, const char* file,
                      unsigned line, const char* function);
void record_exit_status(int status);
[[noreturn]] void fail_deadlock(Thread* me);
[[noreturn]] void fail_diverged(const Divergence& divergence);
[[noreturn]] void fail_shim_error(const char* message);
[[noreturn]] void end_run();

}  // namespace ctrlsched::shim

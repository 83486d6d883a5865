// Fatal-signal capture: which signal, which thread, which pc, written into the run record from
// the signal handler (plain stores only; no allocation, no locks), then the default action.
#pragma once

#include "thread_table.h"

namespace ctrlsched::shim {

void install_crash_handlers();
// A per-thread alternate signal stack, so a stack overflow is still reported. The memory is
// mapped by the creating thread (allocate_alternate_stack), so the order of mappings, and with
// it every later address, does not depend on how fast the new OS thread starts.
void* allocate_alternate_stack();
void install_alternate_stack(void* altstack);  // for the calling thread (from allocate_alternate_stack)
void release_alternate_stack(Thread* t);  // on the thread itself, as it exits

}  // namespace ctrlsched::shim

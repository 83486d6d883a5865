// Expands interposers.def into the exported functions.
#include <pthread.h>
#include <semaphore.h>
#include <threads.h>

#include "interpose.h"
#include "results.h"

using namespace ctrlsched::shim;

#define CTRLSCHED_INTERPOSER(type, name, params, args, call) \
  CTRLSCHED_EXPORT type name params {                         \
    Thread* me = controlled_self();                           \
    if (me == nullptr) return REAL(name) args;                \
    me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)); \
    ShimEntry shim_entry_guard(me);                           \
    return call;                                              \
  }
#include "interposers.def"
#undef CTRLSCHED_INTERPOSER

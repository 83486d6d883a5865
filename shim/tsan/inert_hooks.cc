// libctrlsched_hooks: the TSan ABI with no runtime behind it. An instrumented binary links
// against this so it also runs natively: accesses do nothing, atomics just perform the
// operation. Under ctrlsched the preloaded shim's definitions of the same symbols win.
//
// Inside ctrlsched::explore (the in-process engine) the engine installs a dispatch table here
// (ctrlsched/hook_dispatch.h); every hook checks that one pointer, a single predictable branch
// when nobody explores.
#include "ctrlsched/hook_dispatch.h"

extern "C" {
__attribute__((visibility("default"))) const ctrlsched_hook_dispatch* ctrlsched_hooks_dispatch = nullptr;
}

#define CTRLSCHED_DISPATCH(field, a, n, k, pc)                                                 \
  do {                                                                                         \
    const ctrlsched_hook_dispatch* d = __atomic_load_n(&ctrlsched_hooks_dispatch, __ATOMIC_RELAXED); \
    if (__builtin_expect(d != nullptr, 0)) d->field(a, n, static_cast<int>(k), pc);            \
  } while (0)
#define CTRLSCHED_ON_ACCESS(a, n, k, pc) CTRLSCHED_DISPATCH(access, a, n, k, pc)
#define CTRLSCHED_ON_ATOMIC(a, n, k, pc) CTRLSCHED_DISPATCH(atomic, a, n, k, pc)
#define CTRLSCHED_ON_FUNC_ENTRY(call_pc, self_pc) ((void)(call_pc), (void)(self_pc))
#define CTRLSCHED_ON_FUNC_EXIT() ((void)0)
#define CTRLSCHED_ON_INIT() ((void)0)
#define CTRLSCHED_ON_SYNC(a, release) ((void)(a), (void)(release))
#include "tsan_abi.inc"

// libctrlsched_hooks: the TSan ABI with no runtime behind it. An instrumented binary links
// against this so it also runs natively: accesses do nothing, atomics just perform the
// operation. Under ctrlsched the preloaded shim's definitions of the same symbols win.
#define CTRLSCHED_ON_ACCESS(a, n, k, pc) ((void)(a), (void)(n), (void)(k), (void)(pc))
#define CTRLSCHED_ON_ATOMIC(a, n, k, pc) ((void)(a), (void)(n), (void)(k), (void)(pc))
#define CTRLSCHED_ON_FUNC_ENTRY(call_pc, self_pc) ((void)(call_pc), (void)(self_pc))
#define CTRLSCHED_ON_FUNC_EXIT() ((void)0)
#define CTRLSCHED_ON_INIT() ((void)0)
#define CTRLSCHED_ON_SYNC(a, release) ((void)(a), (void)(release))
#include "tsan_abi.inc"

// The shim's definitions of the TSan ABI: every access and atomic is a scheduling point (with
// --points=accesses) and a trace event (when a collector listens). Under ctrlsched these take
// precedence over the inert hook library the binary was linked with, because the shim is
// preloaded.
#include "access.h"

#define CTRLSCHED_ON_ACCESS(a, n, k, pc) ::ctrlsched::shim::on_access(a, n, k, pc)
#define CTRLSCHED_ON_ATOMIC(a, n, k, pc) ::ctrlsched::shim::on_atomic(a, n, k, pc)
#define CTRLSCHED_ON_FUNC_ENTRY(call_pc, self_pc) ::ctrlsched::shim::on_func_entry(call_pc, self_pc)
#define CTRLSCHED_ON_FUNC_EXIT() ::ctrlsched::shim::on_func_exit()
#define CTRLSCHED_ON_INIT() ::ctrlsched::shim::on_tsan_init()
#define CTRLSCHED_ON_SYNC(a, release) ::ctrlsched::shim::on_annotation(a, release)
#include "tsan_abi.inc"

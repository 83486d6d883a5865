// Shared prologue of every interposer: forward to libc unless the shim controls this thread.
#pragma once

#include "../models/models.h"
#include "../real.h"
#include "../runtime.h"

#include <cstdint>

#define CTRLSCHED_FORWARD_UNLESS_CONTROLLED(fn, ...)                     \
  ::ctrlsched::shim::Thread* me = ::ctrlsched::shim::controlled_self(); \
  if (me == nullptr) return REAL(fn)(__VA_ARGS__);                      \
  me->sync_pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)); \
  ::ctrlsched::shim::ShimEntry shim_entry_guard(me)

#define CTRLSCHED_EXPORT extern "C" __attribute__((visibility("default")))

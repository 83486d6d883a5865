// Zeroing the stack the shim used before test code runs on it (docs/decisions.md 41).
//
// A test that reads a local or a member before writing it reads whatever ran on that stack
// before: at main's start the shim's start-up, at a thread's start the shim's trampoline (its
// park and its ThreadStart event). Left there, that is pointers to the shim's objects, which
// the test would call through, and which differ between a seed run, its replay and a
// --localize run. Zeroes are what a fresh stack page holds, in every mode.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ctrlsched::shim {

// Clears `Bytes` of stack below the caller's frame. Only words that are not zero yet are
// written: a run the fork server forked shares the server's stack pages until it writes one,
// and a page that is clean already stays shared instead of being copied for nothing.
// Volatile accesses rather than memset: a call would leave its own return address below them.
template <std::size_t Bytes>
[[gnu::noinline]] void clear_stack_below_caller() {
  volatile std::uintptr_t used[Bytes / sizeof(std::uintptr_t)];
  for (volatile std::uintptr_t& word : used) {
    if (word != 0) word = 0;
  }
}

}  // namespace ctrlsched::shim

// The baton: a per-thread futex word. Exactly one controlled thread holds it; handing it over is
// "store 1 into the next thread's word and wake it, then sleep on my own word".
#pragma once

#include <atomic>
#include <cstdint>

namespace ctrlsched::shim {

void futex_wait_word(std::atomic<std::uint32_t>& word, std::uint32_t expected);
void futex_wake_word(std::atomic<std::uint32_t>& word);

inline void give_baton(std::atomic<std::uint32_t>& word) {
  word.store(1, std::memory_order_release);
  futex_wake_word(word);
}

inline void wait_baton(std::atomic<std::uint32_t>& word) {
  while (word.load(std::memory_order_acquire) == 0) futex_wait_word(word, 0);
}

}  // namespace ctrlsched::shim

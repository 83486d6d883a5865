#include "baton.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ctrlsched::shim {

// Raw system calls: the shim interposes syscall(), so it must not call it for itself.
static long raw_futex(void* word, int op, std::uint32_t value) {
  long ret;
  register long r10 __asm__("r10") = 0;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "0"(SYS_futex), "D"(word), "S"(op), "d"(value), "r"(r10)
                   : "rcx", "r11", "memory");
  return ret;
}

void futex_wait_word(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
  raw_futex(&word, FUTEX_WAIT_PRIVATE, expected);
}

void futex_wake_word(std::atomic<std::uint32_t>& word) {
  raw_futex(&word, FUTEX_WAKE_PRIVATE, 1);
}

}  // namespace ctrlsched::shim

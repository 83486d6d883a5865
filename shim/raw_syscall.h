// System calls without libc: for code that runs where libc's wrappers must not be used, namely
// the watchdog thread (watchdog.cc), which has no thread state of libc's (no errno, no TLS), and
// calls the shim interposes (syscall(), clock_gettime()), which it must not call for itself.
// Returns what the kernel returns: -errno on failure, never touches errno.
#pragma once

namespace ctrlsched::shim {

inline long raw_syscall(long number, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                        long a5 = 0) {
  long ret;
  register long r10 __asm__("r10") = a3;
  register long r8 __asm__("r8") = a4;
  register long r9 __asm__("r9") = a5;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "0"(number), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}

}  // namespace ctrlsched::shim

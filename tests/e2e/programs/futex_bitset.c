/* Two waiters sleep on one futex word, each with its own bit (FUTEX_WAIT_BITSET), as an event
 * group does; main releases them one at a time with FUTEX_WAKE_BITSET. A wake for one bit must
 * never wake the other waiter, so each wake reports at most one woken thread.
 * Expected under ctrlsched: passes every seed. */
#define _GNU_SOURCE
#include <assert.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint32_t word;
static int released[2];

static long futex_bitset(int op, uint32_t value, uint32_t bits) {
  return syscall(SYS_futex, &word, op | FUTEX_PRIVATE_FLAG, value, NULL, NULL, bits);
}

static void *waiter(void *arg) {
  long index = (long)arg;
  for (;;) {
    uint32_t seen = __atomic_load_n(&word, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&released[index], __ATOMIC_ACQUIRE)) break;
    futex_bitset(FUTEX_WAIT_BITSET, seen, 1u << index);
  }
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, waiter, (void *)i);
  for (int i = 1; i >= 0; i--) {
    __atomic_store_n(&released[i], 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&word, 1, __ATOMIC_RELEASE);
    long woken = futex_bitset(FUTEX_WAKE_BITSET, INT_MAX, 1u << i);
    assert(woken >= 0 && woken <= 1);
  }
  assert(futex_bitset(FUTEX_WAKE_BITSET, 1, 0) == -1); /* an empty bitset is invalid */
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return 0;
}

/* A check-then-act on plain variables with no synchronization at all: two threads each claim a
 * slot if it looks free. Between the check and the act there is no pthread call, so with sync
 * points the bug is unreachable; with access points (instrumented build) both threads can see
 * the slot free and claim it. Failure: assertion `owners == 1`. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int claimed, owners;

static void *claim(void *arg) {
  (void)arg;
  if (!claimed) {
    claimed = 1;
    owners++;
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, claim, NULL);
  pthread_create(&b, NULL, claim, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(owners == 1 && "slot claimed twice");
  return 0;
}

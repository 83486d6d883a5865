/* lost_update.c - two threads increment a shared counter without a lock.
 *
 * What it does: T1 and T2 each run `counter++` ITERS times; main joins both and checks the total.
 * Bug: data race / lost update. `counter++` is a load, an add and a store; nothing orders the two
 *   threads' loads and stores, so one thread can store a stale value over the other's increment.
 * Root cause: line 28 (`counter++;` outside any lock), checked at line 39.
 * Failure: assertion `counter == 2 * ITERS && "lost update"` (lost_update.c:39).
 * Failing interleaving (access points): T1 reads counter (0) | switch |
 *   T2 reads 0 and stores its increments | switch | T1 stores 1 over them -> T2's increments
 *   are lost and the final total is below 2*ITERS.
 * Reachable with: access points only (build instrumented). Between the load and the store there
 *   is no pthread call, so with sync points each thread's whole loop runs as one atomic step.
 * Fix: protect the increment with a mutex, or use atomic_fetch_add.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define ITERS 2

/* Plain int: the race is the point. Natively the window is a few instructions wide, so a native
 * run almost never loses an update. */
int counter;

static void *incrementer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITERS; i++)
    counter++;
  return NULL;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, NULL, incrementer, NULL);
  pthread_create(&t2, NULL, incrementer, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  /* Both threads finished: every increment must be visible. */
  assert(counter == 2 * ITERS && "lost update");
  return 0;
}

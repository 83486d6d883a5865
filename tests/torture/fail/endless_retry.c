/* Failure kind: timeout. A worker retries a computation that never succeeds, without a single
 * scheduling point (no lock, no system call), so only the driver's wall-clock limit ends the
 * run. Every seed (the e2e test runs it with a short --timeout). */
#include <pthread.h>
#include <stdio.h>

static unsigned long attempt(unsigned long x) { return x * 6364136223846793005UL + 1442695040888963407UL; }

static void *worker(void *arg) {
  volatile unsigned long state = (unsigned long)arg;
  while (attempt(state) != 0) state = attempt(state); /* BUG: the LCG never yields 0 from here */
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, (void *)1);
  pthread_join(t, NULL);
  printf("never reached\n");
  return 0;
}

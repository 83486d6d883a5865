/* A livelock made of memory accesses: a worker polls a flag that no thread ever sets, while main
 * waits to join it. Instrumented, every poll is a scheduling point that reads the same value.
 * Expected: hang (no progress), never unfinished. */
#include <pthread.h>
#include <stddef.h>

static volatile int started;

static void *wait_for_start(void *arg) {
  (void)arg;
  while (!started) {
  }
  return NULL;
}

int main(void) {
  pthread_t worker;
  pthread_create(&worker, NULL, wait_for_start, NULL);
  pthread_join(worker, NULL);
  return 0;
}

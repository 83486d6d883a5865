// ctrlsched-truth: class=lost_update fails=hang
// ctrlsched-truth: cause pending R1@21 W2@21 W1@21
/* pending_hang.c - main waits, yielding, until the workers have finished their jobs.
 *
 * Each worker decrements `pending` when its job is done. The counter is volatile, which makes
 * main see every change, but `pending--` is still a load and a store, not an atomic decrement. If one
 * decrement is lost, pending never reaches 0 and main yields forever: the program hangs.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define WORKERS 2

static volatile int pending = WORKERS; /* volatile: main re-reads it while it waits */
static int results[WORKERS];

static void *worker(void *arg) {
  int *slot = arg;
  *slot = 7;
  pending--;
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++)
    pthread_create(&t[i], NULL, worker, &results[i]);
  while (pending > 0)
    sched_yield();
  printf("all jobs done: %d %d\n", results[0], results[1]);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(t[i], NULL);
  return 0;
}

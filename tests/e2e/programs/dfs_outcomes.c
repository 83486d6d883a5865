/* dfs_outcomes.c - a program whose exit status names what its threads saw, so that an exploration
 * that runs every schedule within a bound can be checked for the outcomes it reached
 * (tests/e2e/dfs_test.cc: every reduction must reach every exit status that the search without
 * reduction reaches).
 *
 * main creates two workers and joins them. Worker 1 does private work, reads x, adds to y under
 * the lock m and writes x; worker 2 writes x, does private work, reads y under m, reads x and
 * writes it again. main, after both joins, folds what was read and the final x into the exit
 * status (1..24).
 * Built instrumented: every shared access is a scheduling point, and so is every pthread call.
 */
#include <pthread.h>
#include <stdlib.h>

static volatile int x, y;
static volatile int seen1, seen2, seen3;
static volatile int own1[4], own2[4];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker1(void *arg) {
  (void)arg;
  own1[0] = 1;
  own1[1] = 2;
  seen1 = x;
  pthread_mutex_lock(&m);
  y = y + 3;
  pthread_mutex_unlock(&m);
  x = 5;
  own1[2] = 3;
  return NULL;
}

static void *worker2(void *arg) {
  (void)arg;
  x = 1;
  own2[0] = 1;
  pthread_mutex_lock(&m);
  seen2 = y;
  pthread_mutex_unlock(&m);
  own2[1] = 2;
  seen3 = x;
  x = 2;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker1, NULL);
  pthread_create(&b, NULL, worker2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  /* seen1 in {0, 1, 2}, seen2 in {0, 3}, seen3 and x in {1 or 2, 5}: distinct tuples, distinct statuses. */
  return 1 + seen1 + 3 * (seen2 / 3) + 6 * (seen3 == 5) + 12 * (x == 5);
}

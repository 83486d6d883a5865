/* Two threads yield to each other forever: a livelock made only of scheduling points.
 * Expected under ctrlsched --max-steps 10000: outcome hang. */
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

static void *spinner(void *arg) {
  (void)arg;
  for (;;) sched_yield();
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, spinner, NULL);
  for (;;) sched_yield();
}

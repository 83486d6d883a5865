/* Failure kind: hang (livelock). A worker waits for a "started" flag by yielding; the main
 * thread sets the flag only after joining the worker, so the worker yields forever while every
 * thread stays runnable: ctrlsched reports a hang once --max-steps is reached. Every seed. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int started;

static int is_started(void) {
  pthread_mutex_lock(&lock);
  int s = started;
  pthread_mutex_unlock(&lock);
  return s;
}

static void *worker(void *arg) {
  (void)arg;
  while (!is_started()) sched_yield();
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL); /* BUG: waits for the worker before letting it start */
  pthread_mutex_lock(&lock);
  started = 1;
  pthread_mutex_unlock(&lock);
  printf("never reached\n");
  return 0;
}

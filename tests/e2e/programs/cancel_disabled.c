/* A worker disables cancellation around a step that must complete (it waits on a semaphore, a
 * cancellation point, in between), then re-enables it and checks for a pending cancel.
 * Main cancels it at any moment and posts the semaphore; the step must always complete, and the
 * cancel must still act at pthread_testcancel().
 * Expected under ctrlsched: passes every seed. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

static sem_t go;
static volatile int step_done;
static int reached_end;

static void *worker(void *arg) {
  (void)arg;
  int old = -1;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
  assert(old == PTHREAD_CANCEL_ENABLE);
  sem_wait(&go); /* a cancellation point, but cancellation is disabled */
  step_done = 1;
  pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
  pthread_testcancel();
  reached_end = 1; /* only if the cancel came after testcancel */
  sem_wait(&go);   /* acts here at the latest */
  return NULL;
}

int main(void) {
  sem_init(&go, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  assert(pthread_cancel(t) == 0);
  sem_post(&go);
  void *result = NULL;
  assert(pthread_join(t, &result) == 0);
  assert(result == PTHREAD_CANCELED);
  assert(step_done);
  assert(!reached_end); /* the cancel was pending before the worker re-enabled it */
  return 0;
}

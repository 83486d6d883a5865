/* A worker switches to asynchronous cancellation and computes in a loop that also sleeps;
 * main cancels it. ctrlsched does not model asynchronous cancellation: the cancel acts at the
 * worker's next cancellation point (the sleep), and the run carries a note saying so.
 * Expected under ctrlsched: passes every seed, with the note. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

static volatile unsigned long work;

static void *worker(void *arg) {
  (void)arg;
  pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
  for (;;) {
    for (int i = 0; i < 100; i++) work++;
    usleep(10);
  }
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  usleep(100);
  assert(pthread_cancel(t) == 0);
  void *result = NULL;
  assert(pthread_join(t, &result) == 0);
  assert(result == PTHREAD_CANCELED);
  return 0;
}

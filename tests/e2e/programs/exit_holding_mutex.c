/* A worker locks a mutex and returns without unlocking it; main then needs the mutex.
 * Expected under ctrlsched: every seed ends in a deadlock whose message names the holder (T1)
 * as a thread that has exited. */
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *leaker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  return NULL; /* BUG (on purpose): exits holding `lock` */
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, leaker, NULL);
  pthread_join(t, NULL);
  pthread_mutex_lock(&lock); /* held by an exited thread: blocks forever */
  pthread_mutex_unlock(&lock);
  return 0;
}

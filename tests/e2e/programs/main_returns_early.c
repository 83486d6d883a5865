/* main returns while a worker waits forever on a condition variable nobody signals: returning
 * from main ends the process (exit status 0), whatever the other threads do.
 * Expected under ctrlsched: passes (not a deadlock, not a hang). */
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  for (;;) pthread_cond_wait(&never, &lock);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, waiter, NULL);
  return 0;
}

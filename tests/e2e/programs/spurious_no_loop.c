/* A wait WITHOUT a predicate loop: correct only if condition variables never wake spuriously.
 * Expected: passes without --spurious-wakeups, fails (assertion) with it — the flag's control. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, waiting;

static void *setter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  while (!waiting) { /* make sure the waiter waits: then the signal cannot be missed */
    pthread_mutex_unlock(&lock);
    sched_yield();
    pthread_mutex_lock(&lock);
  }
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, setter, NULL);
  pthread_mutex_lock(&lock);
  waiting = 1;
  pthread_cond_wait(&cv, &lock); /* no loop: a spurious wakeup returns with ready == 0 */
  assert(ready && "woke without the predicate");
  pthread_mutex_unlock(&lock);
  pthread_join(t, NULL);
  return 0;
}

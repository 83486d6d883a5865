/* pthread_cond_broadcast wakes every waiter: WAITERS threads each wait ONCE (no predicate loop)
 * after announcing themselves; main waits until all of them are waiting, then broadcasts a
 * single time. If a waiter were left asleep, the run would end in a deadlock. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define WAITERS 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, all_waiting = PTHREAD_COND_INITIALIZER;
static int waiting, woken, released;

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  waiting++;
  pthread_cond_signal(&all_waiting);
  pthread_cond_wait(&go, &lock); /* once: a missed broadcast is a deadlock */
  assert(released && "woke up before the broadcast");
  woken++;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t t[WAITERS];
  for (int i = 0; i < WAITERS; i++) pthread_create(&t[i], NULL, waiter, NULL);
  pthread_mutex_lock(&lock);
  while (waiting < WAITERS) pthread_cond_wait(&all_waiting, &lock);
  released = 1;
  pthread_cond_broadcast(&go);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < WAITERS; i++) pthread_join(t[i], NULL);
  assert(woken == WAITERS);
  return 0;
}

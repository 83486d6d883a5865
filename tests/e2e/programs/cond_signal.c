/* pthread_cond_signal wakes at least one waiter: two threads each wait ONCE after announcing
 * themselves; main signals once and then waits until some waiter reports it woke (a signal that
 * woke nobody would leave main blocked: deadlock). Then it signals until both are done. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define WAITERS 2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, progress = PTHREAD_COND_INITIALIZER;
static int waiting, woken, signals;

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  waiting++;
  pthread_cond_signal(&progress);
  pthread_cond_wait(&go, &lock); /* once */
  assert(signals > 0 && "woke up without a signal");
  woken++;
  assert(woken <= signals && "one signal woke more waiters than were signalled");
  pthread_cond_signal(&progress);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t t[WAITERS];
  for (int i = 0; i < WAITERS; i++) pthread_create(&t[i], NULL, waiter, NULL);
  pthread_mutex_lock(&lock);
  while (waiting < WAITERS) pthread_cond_wait(&progress, &lock);
  for (int s = 1; s <= WAITERS; s++) {
    signals++;
    pthread_cond_signal(&go);
    while (woken < s) pthread_cond_wait(&progress, &lock);
  }
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < WAITERS; i++) pthread_join(t[i], NULL);
  assert(woken == WAITERS);
  return 0;
}

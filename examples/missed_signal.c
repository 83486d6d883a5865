/* missed_signal.c - a condition-variable wakeup that is sent before anyone waits.
 *
 * What it does: a waiter thread waits for `ready` to be set by a notifier thread.
 * Bug: missed wakeup. The waiter checks `ready` in one critical section (lines 27-29), drops
 *   the mutex, and then waits on the condition variable in a second critical section
 *   (lines 31-33) without re-checking `ready`. If the notifier sets `ready` and signals in
 *   between, the signal finds no waiter and is lost; the waiter then waits forever.
 * Root cause: lines 29-32 (unlock, re-lock, and pthread_cond_wait without a predicate loop).
 * Failure: deadlock - the waiter blocks in pthread_cond_wait forever, the notifier has exited,
 *   main blocks in pthread_join(waiter): no thread can run.
 * Failing interleaving (sync points, 1 preemption):
 *   waiter: lock, ready == 0, unlock | switch at the waiter's second pthread_mutex_lock
 *   (line 31) | notifier: lock, ready = 1, pthread_cond_signal (no waiter yet: lost), unlock,
 *   exit | waiter: lock, pthread_cond_wait -> never woken.
 * Reachable with: sync points.
 * Fix: one critical section with `while (!ready) pthread_cond_wait(&cond, &lock);`.
 */
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int already = ready;
  pthread_mutex_unlock(&lock);
  if (!already) {
    pthread_mutex_lock(&lock);
    pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

static void *notifier(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  ready = 1;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t w, n;
  pthread_create(&w, NULL, waiter, NULL);
  pthread_create(&n, NULL, notifier, NULL);
  pthread_join(w, NULL);
  pthread_join(n, NULL);
  return 0;
}

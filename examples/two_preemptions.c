/* two_preemptions.c - a hand-rolled try-claim that needs two preemptions to break.
 *
 * What it does: two threads share one device through per-thread `claimed` flags, each flag
 *   under its own mutex. A thread (1) checks that the other has not claimed the device,
 *   (2) claims it, (3) starts using it, (4) stops, (5) releases the claim. The device counts
 *   its `users` and asserts that it never has two.
 * Bug: check-then-act race: the check (1, lines 46-48) and the claim (2, lines 51-53) are
 *   separate critical sections, so both threads can pass the check before either claims.
 * Root cause: lines 46-53 (the check and the claim hold no common lock; the gap is 48-51).
 * Failure: assertion `users <= 1 && "device used by two threads at once"`
 *   (two_preemptions.c:40).
 * Failing interleaving (sync points, 2 preemptions):
 *   T1: (1) claimed[1] == 0 | preemption 1 at T1's pthread_mutex_lock in (2), line 51 |
 *   T2: (1) claimed[0] == 0, (2) claims, (3) users = 1 | preemption 2 at T2's
 *   pthread_mutex_lock in (4) (line 38, called from line 55) |
 *   T1: (2) claims, (3) users = 2 -> assertion fails.
 * Why one preemption is not enough: X fails only if (a) both checks come before both claims
 *   (a later check would see the other's flag and give up) and (b) Y is between (3) and (4)
 *   when X does (3). (a) needs a thread stopped between its check and its claim, (b) needs Y
 *   stopped between (3) and (4). A thread stops mid-way only when preempted or when it blocks
 *   on a mutex held by a thread that was itself stopped inside a critical section; the stop
 *   for (a) happens before any claim and the stop for (b) after Y's claim, so each needs its
 *   own preemption. With one, the thread that starts second gives up or finds the device free.
 *   (Checked exhaustively on a model of this program, with and without mutex hand-off.)
 * Reachable with: sync points (needs a preemption bound of at least 2).
 * Fix: check and claim under one lock.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t flag_lock[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static int claimed[2]; /* claimed[i], guarded by flag_lock[i]: thread i owns the device */
static pthread_mutex_t device_lock = PTHREAD_MUTEX_INITIALIZER;
static int users; /* guarded by device_lock: threads using the device right now */

static void device_users(int delta) {
  pthread_mutex_lock(&device_lock);
  users += delta;
  assert(users <= 1 && "device used by two threads at once");
  pthread_mutex_unlock(&device_lock);
}

static void *worker(void *arg) {
  int me = (int)(intptr_t)arg, other = 1 - me;
  pthread_mutex_lock(&flag_lock[other]); /* (1) has the other claimed the device? */
  int busy = claimed[other];
  pthread_mutex_unlock(&flag_lock[other]);
  if (busy)
    return NULL; /* try-claim failed: give up */
  pthread_mutex_lock(&flag_lock[me]); /* (2) claim it */
  claimed[me] = 1;
  pthread_mutex_unlock(&flag_lock[me]);
  device_users(+1); /* (3) start using it ... a real driver would do I/O here ... */
  device_users(-1); /* (4) stop using it */
  pthread_mutex_lock(&flag_lock[me]); /* (5) release the claim */
  claimed[me] = 0;
  pthread_mutex_unlock(&flag_lock[me]);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(users == 0 && claimed[0] == 0 && claimed[1] == 0);
  return 0;
}

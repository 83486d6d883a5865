/* abba_deadlock.c - two threads take the same two mutexes in opposite orders.
 *
 * What it does: a "transfer" thread locks account A then account B; a "refund" thread locks B
 *   then A. Each moves 10 units between the two balances; main checks the total afterwards.
 * Bug: lock-order inversion (ABBA deadlock).
 * Root cause: lines 26-27 (A then B) against lines 38-39 (B then A).
 * Failure: deadlock - T1 holds A and waits for B, T2 holds B and waits for A, main waits in
 *   pthread_join: no thread can run.
 * Failing interleaving (sync points, 1 preemption):
 *   T1: lock A (line 26) | switch at T1's pthread_mutex_lock(B) (line 27) |
 *   T2: lock B (line 38), lock A blocks (line 39) | T1: lock B blocks -> deadlock.
 * Reachable with: sync points.
 * Fix: take the locks in one global order in both threads.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int balance_a = 100, balance_b = 100;

/* Moves 10 from A to B. */
static void *transfer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock_a);
  pthread_mutex_lock(&lock_b);
  balance_a -= 10;
  balance_b += 10;
  pthread_mutex_unlock(&lock_b);
  pthread_mutex_unlock(&lock_a);
  return NULL;
}

/* Moves 10 from B back to A. */
static void *refund(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock_b);
  pthread_mutex_lock(&lock_a);
  balance_b -= 10;
  balance_a += 10;
  pthread_mutex_unlock(&lock_a);
  pthread_mutex_unlock(&lock_b);
  return NULL;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, NULL, transfer, NULL);
  pthread_create(&t2, NULL, refund, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  assert(balance_a == 100 && balance_b == 100);
  return 0;
}

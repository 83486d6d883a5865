/* check_then_act.c - two threads withdraw from one bank account.
 *
 * What it does: the balance starts at 100; T1 and T2 each try to withdraw 60. A withdrawal first
 *   checks the balance under the lock, releases the lock, then re-acquires it to subtract.
 * Bug: check-then-act atomicity violation. The check (lines 25-27) and the act (lines 29-32) are
 *   two separate critical sections, so the balance checked is not the balance debited.
 * Root cause: lines 27-29 (the lock is dropped between the check and the subtraction).
 * Failure: assertion `balance >= 0 && "account overdrawn"` (check_then_act.c:31).
 * Failing interleaving (sync points, 1 preemption):
 *   T1: lock, balance 100 >= 60, unlock | switch at T1's second pthread_mutex_lock (line 29) |
 *   T2: lock, 100 >= 60, unlock, lock, balance = 40, unlock, exit |
 *   T1: lock, balance = 40 - 60 = -20 -> assertion fails.
 * Reachable with: sync points.
 * Fix: check and subtract in the same critical section.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int balance = 100;

static void *withdraw(void *arg) {
  int amount = *(const int *)arg;
  pthread_mutex_lock(&lock);
  int enough = balance >= amount;
  pthread_mutex_unlock(&lock);
  if (enough) {
    pthread_mutex_lock(&lock);
    balance -= amount;
    assert(balance >= 0 && "account overdrawn");
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  static const int amount = 60;
  pthread_t t1, t2;
  pthread_create(&t1, NULL, withdraw, (void *)&amount);
  pthread_create(&t2, NULL, withdraw, (void *)&amount);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  /* Exactly one withdrawal can succeed: 100 - 60 = 40. */
  assert(balance == 40);
  return 0;
}

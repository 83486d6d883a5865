/* force_late_partner.c - a ledger updated by three workers; main builds a rate table between
 * starting the first worker and the others.
 *
 * Bug: lost update on `ledger.total` (read, compute, store without a lock).
 * Root cause: `long total = ledger.total;` of one worker and `ledger.total = total + fee;` of
 *   another interleave: R1 - W2 - W1 (the window spans the batch loop in between).
 * Failure: assertion in main (`ledger.total == expected`).
 * Forcing trap: the failing run's partner (the second worker) does not exist yet when the first
 *   worker reads; main's table setup takes longer than a hold's budget, so the first worker's
 *   hold expires before its partner is even created; and a third worker competes for the role.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define RATES 800
#define BATCH 40

struct ledger {
  long total;
};

static struct ledger ledger;
static long rate_table[RATES];
static long surcharge[BATCH] = {1, 2, 3, 4, 5, 6, 7, 8};

static long fee_for(long amount) { return amount / 10 + 1; }

static void *worker(void *arg) {
  long amount = (long)(size_t)arg;
  long total = ledger.total;
  long fee = fee_for(amount);
  for (int i = 0; i < BATCH; i++) fee += surcharge[i]; /* the batch's surcharges */
  ledger.total = total + fee;
  return NULL;
}

int main(void) {
  pthread_t first, second, third;
  pthread_create(&first, NULL, worker, (void *)(size_t)100);
  for (int i = 0; i < RATES; i++) rate_table[i] = fee_for(i * 7L) + (i > 0 ? rate_table[i - 1] % 3 : 0);
  pthread_create(&second, NULL, worker, (void *)(size_t)200);
  pthread_create(&third, NULL, worker, (void *)(size_t)300);
  pthread_join(first, NULL);
  pthread_join(second, NULL);
  pthread_join(third, NULL);
  long expected = 3 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8) + fee_for(100) + fee_for(200) + fee_for(300);
  assert(ledger.total == expected && "a fee was lost");
  return rate_table[RATES - 1] < 0;
}

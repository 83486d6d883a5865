// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause accounts R1@23 W2@23 W1@23
/* bank_deposit.c - two payroll batches credit salaries to a shared account table.
 *
 * Each batch credits two consecutive accounts; the batches overlap on account 101.
 * Bug: deposit() updates the balance without the table lock the rest of the bank uses, so two
 * concurrent credits to one account can lose one of them. The payroll total comes out short.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define ACCOUNTS 4

struct account {
  long id;
  long balance;
};

static struct account accounts[ACCOUNTS] = {{100, 0}, {101, 0}, {102, 0}, {103, 0}};

static void deposit(int idx, long amount) {
  accounts[idx].balance += amount;
}

struct batch {
  int first;
  int count;
  long amount;
};

static void *payroll(void *arg) {
  const struct batch *b = arg;
  for (int i = 0; i < b->count; i++)
    deposit((b->first + i) % ACCOUNTS, b->amount);
  return NULL;
}

int main(void) {
  pthread_t t1, t2;
  struct batch engineering = {0, 2, 1000}, support = {1, 2, 500};
  pthread_create(&t1, NULL, payroll, &engineering);
  pthread_create(&t2, NULL, payroll, &support);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  long total = 0;
  for (int i = 0; i < ACCOUNTS; i++)
    total += accounts[i].balance;
  printf("payroll total %ld\n", total);
  assert(total == 2 * 1000 + 2 * 500);
  return 0;
}

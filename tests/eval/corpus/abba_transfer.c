// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause checking,savings lock1@20:checking lock2@20:savings lock2@21:checking lock1@21:savings
/* abba_transfer.c - two transfers in opposite directions between the same two accounts.
 *
 * transfer() locks the source account, then the destination. Transfers in opposite directions
 * take the two locks in opposite orders: each can hold its source and wait for the other's.
 */
#include <pthread.h>
#include <stdio.h>

struct account {
  pthread_mutex_t lock;
  long balance;
};

static struct account checking = {PTHREAD_MUTEX_INITIALIZER, 500};
static struct account savings = {PTHREAD_MUTEX_INITIALIZER, 1000};

static void transfer(struct account *from, struct account *to, long amount) {
  pthread_mutex_lock(&from->lock);
  pthread_mutex_lock(&to->lock);
  if (from->balance >= amount) {
    from->balance -= amount;
    to->balance += amount;
  }
  pthread_mutex_unlock(&to->lock);
  pthread_mutex_unlock(&from->lock);
}

static void *pay_rent(void *arg) {
  (void)arg;
  transfer(&checking, &savings, 300);
  return NULL;
}

static void *top_up(void *arg) {
  (void)arg;
  transfer(&savings, &checking, 200);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, pay_rent, NULL);
  pthread_create(&b, NULL, top_up, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("checking %ld, savings %ld\n", checking.balance, savings.balance);
  return 0;
}

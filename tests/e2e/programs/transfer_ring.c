/* transfer_ring.c - three tellers, each moving money from its own till to the next teller's.
 *
 * A transfer locks the source till, then the destination till. Teller 0 pays into till 1,
 * teller 1 into till 2 and teller 2 into till 0, so the three transfers can each hold their own
 * till and wait for the next one: a lock-order cycle of three threads
 * (tests/e2e/sync_order_test.cc: the cycle is explained and confirmed by forcing).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define TILLS 3

static pthread_mutex_t till_lock[TILLS] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                           PTHREAD_MUTEX_INITIALIZER};
static long till[TILLS] = {100, 100, 100};

static void transfer(int from, int to, long amount) {
  pthread_mutex_lock(&till_lock[from]);
  if (till[from] >= amount) {
    pthread_mutex_lock(&till_lock[to]);
    till[from] -= amount;
    till[to] += amount;
    pthread_mutex_unlock(&till_lock[to]);
  }
  pthread_mutex_unlock(&till_lock[from]);
}

static void *teller(void *arg) {
  const int me = (int)(intptr_t)arg;
  transfer(me, (me + 1) % TILLS, 10 * (me + 1));
  return NULL;
}

int main(void) {
  pthread_t tellers[TILLS];
  for (intptr_t i = 0; i < TILLS; i++) pthread_create(&tellers[i], NULL, teller, (void *)i);
  for (int i = 0; i < TILLS; i++) pthread_join(tellers[i], NULL);
  printf("tills %ld %ld %ld\n", till[0], till[1], till[2]);
  return 0;
}

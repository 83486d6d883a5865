/* Failure kind: assertion. Two tellers move money between accounts; each transfer locks the
 * two accounts one after the other instead of together, so an auditor that sums all balances
 * under the accounts' locks can see money "in flight" (withdrawn, not yet deposited) and its
 * assertion that the total is constant fails on some interleavings. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

enum { kAccounts = 3 };

static pthread_mutex_t locks[kAccounts] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                           PTHREAD_MUTEX_INITIALIZER};
static int balance[kAccounts] = {100, 100, 100};

static void transfer(int from, int to, int amount) {
  pthread_mutex_lock(&locks[from]);
  balance[from] -= amount;
  pthread_mutex_unlock(&locks[from]);
  /* BUG: the money is in neither account here. */
  pthread_mutex_lock(&locks[to]);
  balance[to] += amount;
  pthread_mutex_unlock(&locks[to]);
}

static void *teller(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < 2; i++) transfer((int)id, (int)(id + 1) % kAccounts, 10);
  return NULL;
}

static void *auditor(void *arg) {
  (void)arg;
  for (int i = 0; i < kAccounts; i++) pthread_mutex_lock(&locks[i]);
  int total = 0;
  for (int i = 0; i < kAccounts; i++) total += balance[i];
  for (int i = kAccounts - 1; i >= 0; i--) pthread_mutex_unlock(&locks[i]);
  assert(total == 300);
  return NULL;
}

int main(void) {
  pthread_t tellers[2], audit;
  for (long i = 0; i < 2; i++) pthread_create(&tellers[i], NULL, teller, (void *)i);
  pthread_create(&audit, NULL, auditor, NULL);
  for (int i = 0; i < 2; i++) pthread_join(tellers[i], NULL);
  pthread_join(audit, NULL);
  printf("audit passed\n");
  return 0;
}

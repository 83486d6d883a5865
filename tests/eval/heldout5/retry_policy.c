// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_timeout_ms,g_retries W1@19:g_timeout_ms R2@42:g_timeout_ms R2@43:g_retries W1@25:g_retries
// The retry policy of an RPC client, reloaded from the config while requests are in flight.
// Every policy the config allows keeps timeout_ms * retries within the per-request budget.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define BUDGET_MS 1000
#define REQUESTS 3

pthread_rwlock_t g_policy_lock = PTHREAD_RWLOCK_INITIALIZER;
int g_timeout_ms = 100;
int g_retries = 8;
int g_policy_version = 1;

static void set_timeout(int ms) {
  pthread_rwlock_wrlock(&g_policy_lock);
  g_timeout_ms = ms;
  pthread_rwlock_unlock(&g_policy_lock);
}

static void set_retries(int n) {
  pthread_rwlock_wrlock(&g_policy_lock);
  g_retries = n;
  g_policy_version++;
  pthread_rwlock_unlock(&g_policy_lock);
}

static void *reloader(void *arg) {
  (void)arg;
  // The new config: fewer, longer attempts (400 ms x 2 instead of 100 ms x 8).
  set_timeout(400);
  set_retries(2);
  return NULL;
}

static void *requester(void *arg) {
  long *worst = arg;
  for (int i = 0; i < REQUESTS; ++i) {
    pthread_rwlock_rdlock(&g_policy_lock);
    int timeout = g_timeout_ms;
    int retries = g_retries;
    pthread_rwlock_unlock(&g_policy_lock);
    long total = (long)timeout * retries;
    assert(total <= BUDGET_MS);
    if (total > *worst) *worst = total;
  }
  return NULL;
}

int main(void) {
  long worst = 0;
  pthread_t rel, req;
  pthread_create(&req, NULL, requester, &worst);
  pthread_create(&rel, NULL, reloader, NULL);
  pthread_join(req, NULL);
  pthread_join(rel, NULL);
  assert(g_timeout_ms * g_retries <= BUDGET_MS);
  printf("policy v%d: %d ms x %d, worst request budget %ld ms\n", g_policy_version, g_timeout_ms,
         g_retries, worst);
  return 0;
}

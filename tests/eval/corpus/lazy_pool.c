// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_pool_ready R1@31 W2@33
// ctrlsched-truth: cause g_pool W1@35 W2@25 R1@35
/* lazy_pool.c - a buffer pool initialized lazily by the first thread that needs a buffer.
 *
 * pool_get() tests an unsynchronized "ready" flag; two threads can both see it clear and both
 * initialize the pool, the second resetting the first's allocation. The final accounting
 * (buffers handed out == buffers in use) fails.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define BUFFERS 8

struct pool {
  int used;
  char buffers[BUFFERS][32];
};

static struct pool g_pool;
static int g_pool_ready;

static void pool_init(void) {
  g_pool.used = 0;
  for (int i = 0; i < BUFFERS; i++)
    g_pool.buffers[i][0] = '\0';
}

static char *pool_get(void) {
  if (!g_pool_ready) {
    pool_init();
    g_pool_ready = 1;
  }
  return g_pool.buffers[g_pool.used++];
}

static void *worker(void *arg) {
  char *buffer = pool_get();
  snprintf(buffer, 32, "%s", (const char *)arg);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, "request A");
  pthread_create(&b, NULL, worker, "request B");
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d buffers in use\n", g_pool.used);
  assert(g_pool.used == 2 && "pool initialized twice");
  return 0;
}

/* pthread_once runs its routine exactly once, and every caller returns only after it finished
 * (the routine has a scheduling point in the middle). */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#define THREADS 4

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int runs, ready;

static void init(void) {
  runs++;
  sched_yield(); /* another caller may try pthread_once now */
  ready = 1;
}

static void *caller(void *arg) {
  (void)arg;
  assert(pthread_once(&once, init) == 0);
  assert(ready && "pthread_once returned before the routine finished");
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, caller, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  assert(runs == 1 && "pthread_once ran its routine more than once");
  return 0;
}

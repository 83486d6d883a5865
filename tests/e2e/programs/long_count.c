/* A correct program that is simply long: two workers add to a shared total under a mutex, N times
 * each (argv[1], default 200000). Instrumented, every access to the total is a scheduling point,
 * so a run takes several steps per iteration: more than --max-steps for a large N.
 * Expected: unfinished (still making progress) at a --max-steps below its length, pass above. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
static long total;
static long iterations = 200000;

static void *add_all(void *arg) {
  (void)arg;
  for (long i = 0; i < iterations; ++i) {
    pthread_mutex_lock(&total_lock);
    total += 1;
    pthread_mutex_unlock(&total_lock);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1) iterations = atol(argv[1]);
  pthread_t a, b;
  pthread_create(&a, NULL, add_all, NULL);
  pthread_create(&b, NULL, add_all, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(total == 2 * iterations);
  return 0;
}

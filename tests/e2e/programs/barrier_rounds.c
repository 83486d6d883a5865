/* A barrier of THREADS threads over ROUNDS rounds: no thread leaves round r before all THREADS
 * have arrived at it, and exactly one thread per round gets PTHREAD_BARRIER_SERIAL_THREAD. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#define THREADS 3
#define ROUNDS 3

static pthread_barrier_t barrier;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int arrived[ROUNDS], left[ROUNDS], serial[ROUNDS]; /* guarded by lock */

static void *worker(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; r++) {
    pthread_mutex_lock(&lock);
    arrived[r]++;
    pthread_mutex_unlock(&lock);
    sched_yield();
    int rc = pthread_barrier_wait(&barrier);
    assert(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
    pthread_mutex_lock(&lock);
    assert(arrived[r] == THREADS && "left the barrier before everyone arrived");
    if (r > 0) assert(left[r - 1] == THREADS && "left round r before everyone left round r-1");
    left[r]++;
    if (rc == PTHREAD_BARRIER_SERIAL_THREAD) serial[r]++;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  assert(pthread_barrier_init(&barrier, NULL, THREADS) == 0);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (int r = 0; r < ROUNDS; r++) assert(serial[r] == 1 && "not exactly one serial thread");
  pthread_barrier_destroy(&barrier);
  return 0;
}

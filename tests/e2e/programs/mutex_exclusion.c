/* Mutual exclusion: THREADS threads increment a plain counter ITERS times under a mutex, with a
 * yield (a scheduling point) inside the critical section; `inside` checks that no two threads
 * are ever in it together, and the final count checks that no increment was lost. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#define THREADS 3
#define ITERS 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter, inside;

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < ITERS; i++) {
    pthread_mutex_lock(&lock);
    inside++;
    assert(inside == 1 && "two threads inside the critical section");
    int seen = counter;
    sched_yield(); /* a scheduling point inside the critical section */
    counter = seen + 1;
    inside--;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  assert(counter == THREADS * ITERS);
  return 0;
}

/* A work queue served by 200 detached workers: main posts 200 jobs, each worker takes one,
 * adds its value to a shared total and reports completion through a condition variable; main
 * waits until every job is done (it cannot join detached threads) and checks the total.
 * Must pass every seed: the total is protected by the queue's mutex. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

enum { kWorkers = 200 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int next_job, finished;
static long total;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int job = next_job++;
  total += job;
  if (++finished == kWorkers) pthread_cond_signal(&done_cv);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < kWorkers; i++) {
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker, NULL);
    assert(rc == 0);
  }
  pthread_attr_destroy(&attr);
  pthread_mutex_lock(&lock);
  while (finished < kWorkers) pthread_cond_wait(&done_cv, &lock);
  long expected = (long)kWorkers * (kWorkers - 1) / 2;
  assert(total == expected);
  pthread_mutex_unlock(&lock);
  printf("%d jobs, total %ld\n", kWorkers, total);
  return 0;
}

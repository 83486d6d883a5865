// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause total_ms W1@22 R2@39
// ctrlsched-truth: cause samples R1@42 W2@25
// ctrlsched-truth: cause total_ms R1@39 W2@22
// ctrlsched-truth: cause samples W1@25 R2@42
/* latency_stats.c - request latencies summed and counted under two locks; a reporter prints the mean.
 * add_sample() updates the sum and the count in two separate critical sections, so the
 * reporter can see a sum that already includes a sample the count does not (or, with the second
 * sample, a count that includes one the sum does not). Every sample is
 * 10 ms, so the reporter's sanity check (sum == 10 * count) fails on such a snapshot. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static long total_ms; /* guarded by sum_lock */
static long samples;  /* guarded by count_lock */

static void add_sample(long ms) {
  pthread_mutex_lock(&sum_lock);
  total_ms += ms;
  pthread_mutex_unlock(&sum_lock);
  pthread_mutex_lock(&count_lock);
  samples++;
  pthread_mutex_unlock(&count_lock);
}

static void *handler(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++)
    add_sample(10);
  return NULL;
}

static void *reporter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&sum_lock);
  long total = total_ms;
  pthread_mutex_unlock(&sum_lock);
  pthread_mutex_lock(&count_lock);
  long n = samples;
  pthread_mutex_unlock(&count_lock);
  if (n > 0)
    printf("mean latency %ld ms over %ld samples\n", total / n, n);
  assert(total == 10 * n && "inconsistent latency snapshot");
  return NULL;
}

int main(void) {
  pthread_t h, r;
  pthread_create(&h, NULL, handler, NULL);
  pthread_create(&r, NULL, reporter, NULL);
  pthread_join(h, NULL);
  pthread_join(r, NULL);
  return 0;
}

/* atomicity_multi_var.c - two related statistics updated in two separate critical sections.
 *
 * What it does: a recorder thread records SAMPLES samples of value SAMPLE into `count` and
 *   `sum`, each protected by its own mutex. A reporter thread takes both mutexes and checks
 *   the invariant sum == count * SAMPLE (i.e. the mean is SAMPLE).
 * Bug: multi-variable atomicity violation. Each field is consistently locked, so there is no
 *   data race, but the pair (count, sum) is updated in two critical sections: between them the
 *   invariant does not hold, and the reporter can observe that intermediate state.
 * Root cause: lines 34-39 (count++ and sum += SAMPLE in two critical sections).
 * Failure: assertion `sum_seen == count_seen * SAMPLE && "count and sum out of step"`
 *   (atomicity_multi_var.c:52).
 * Failing interleaving (sync points, 1 preemption):
 *   recorder: lock count_lock, count = 1, unlock | switch at the recorder's
 *   pthread_mutex_lock(&sum_lock) (line 37) | reporter: lock count_lock and sum_lock,
 *   reads count 1 and sum 0, unlocks, assertion fails.
 * Reachable with: sync points.
 * Fix: update both fields under one lock (or take both locks around the pair of updates).
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define SAMPLE 5
#define SAMPLES 2

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static int count; /* guarded by count_lock */
static int sum;   /* guarded by sum_lock */

static void *recorder(void *arg) {
  (void)arg;
  for (int i = 0; i < SAMPLES; i++) {
    pthread_mutex_lock(&count_lock);
    count++;
    pthread_mutex_unlock(&count_lock);
    pthread_mutex_lock(&sum_lock);
    sum += SAMPLE;
    pthread_mutex_unlock(&sum_lock);
  }
  return NULL;
}

static void *reporter(void *arg) {
  (void)arg;
  /* Both locks, always in this order: the snapshot itself is consistent. */
  pthread_mutex_lock(&count_lock);
  pthread_mutex_lock(&sum_lock);
  int count_seen = count, sum_seen = sum;
  pthread_mutex_unlock(&sum_lock);
  pthread_mutex_unlock(&count_lock);
  assert(sum_seen == count_seen * SAMPLE && "count and sum out of step");
  return NULL;
}

int main(void) {
  pthread_t rec, rep;
  pthread_create(&rec, NULL, recorder, NULL);
  pthread_create(&rep, NULL, reporter, NULL);
  pthread_join(rec, NULL);
  pthread_join(rep, NULL);
  assert(count == SAMPLES && sum == SAMPLES * SAMPLE);
  return 0;
}

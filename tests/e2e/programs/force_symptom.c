/* force_symptom.c - two workers count processed items; the last worker to finish audits the
 * count and records an error code, which main checks.
 *
 * Bug: lost update on `processed` (`processed++` without a lock).
 * Root cause: the increment's load and store of two workers interleave (R1 - W2 - W1 at
 *   `processed++;`).
 * Failure: assertion in main (`error_code == 0`).
 * Symptom: the audit's store `error_code = ERR_LOST;` runs only when updates were already lost,
 *   and main reads error_code in every run. The order "worker stores error_code, then main reads
 *   it" happens in every failing run and in no passing run, but it is the failure being reported,
 *   not its cause: forcing it cannot make an update get lost.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define ITEMS 2
#define WORKERS 2
#define ERR_LOST 17

static int processed;
static atomic_int finished;
static int error_code;

static void audit(void) {
  if (processed != ITEMS * WORKERS) error_code = ERR_LOST;
}

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; i++) processed++;
  if (atomic_fetch_add(&finished, 1) == WORKERS - 1) audit();
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < WORKERS; i++) pthread_join(t[i], NULL);
  assert(error_code == 0 && "items were lost");
  return 0;
}

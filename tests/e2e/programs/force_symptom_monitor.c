/* force_symptom_monitor.c - two workers count processed items; the last worker to finish audits
 * the count and records an error code, and a monitor thread, woken by the audit, checks it.
 *
 * Bug: lost update on `processed` (`processed++` without a lock).
 * Root cause: the increment's load and store of two workers interleave (R1 - W2 - W1 at
 *   `processed++;`).
 * Failure: assertion in the monitor (`error_code == 0`).
 * Symptom: the audit's store `error_code = ERR_LOST;` runs only when updates were already lost,
 *   and the monitor reads error_code in every run. Unlike force_symptom.c, where main reads it
 *   after joining the workers (an order fixed by the join, which is no pattern at all), the
 *   monitor learns of the audit through a semaphore, so "a worker stores error_code, then the
 *   monitor reads it" is an interleaving like any other: in every failing run and in no passing
 *   one, but the failure being reported, not its cause.
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stddef.h>

#define ITEMS 2
#define WORKERS 2
#define ERR_LOST 17

static int processed;
static atomic_int finished;
static int error_code;
static sem_t audited;

static void audit(void) {
  if (processed != ITEMS * WORKERS) error_code = ERR_LOST;
  sem_post(&audited);
}

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; i++) processed++;
  if (atomic_fetch_add(&finished, 1) == WORKERS - 1) audit();
  return NULL;
}

static void *monitor(void *arg) {
  (void)arg;
  sem_wait(&audited);
  assert(error_code == 0 && "items were lost");
  return NULL;
}

int main(void) {
  sem_init(&audited, 0, 0);
  pthread_t m, t[WORKERS];
  pthread_create(&m, NULL, monitor, NULL);
  for (int i = 0; i < WORKERS; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < WORKERS; i++) pthread_join(t[i], NULL);
  pthread_join(m, NULL);
  sem_destroy(&audited);
  return 0;
}

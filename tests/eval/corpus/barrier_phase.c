// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause g_total W1@29 R2@33
// ctrlsched-truth: cause g_total R1@33 W2@29 W1@34
/* barrier_phase.c - workers add partial results per phase; at the barrier the serial thread
 * files the phase total and resets the accumulator.
 *
 * There is no second barrier after the reset: another worker can start the next phase and add
 * to g_total before the serial thread has read and reset it, so its contribution lands in the
 * wrong phase or is wiped out.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define WORKERS 2
#define PHASES 2

static pthread_barrier_t phase_end;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
static long g_total; /* guarded by total_lock */
static long g_phase_totals[PHASES];

static void *worker(void *arg) {
  long id = (long)(intptr_t)arg;
  for (int phase = 0; phase < PHASES; phase++) {
    long part = (phase + 1) * 100 + id;
    pthread_mutex_lock(&total_lock);
    g_total += part;
    pthread_mutex_unlock(&total_lock);
    if (pthread_barrier_wait(&phase_end) == PTHREAD_BARRIER_SERIAL_THREAD) {
      pthread_mutex_lock(&total_lock);
      g_phase_totals[phase] = g_total;
      g_total = 0;
      pthread_mutex_unlock(&total_lock);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  pthread_barrier_init(&phase_end, NULL, WORKERS);
  for (intptr_t i = 0; i < WORKERS; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&phase_end);
  printf("phase totals %ld %ld\n", g_phase_totals[0], g_phase_totals[1]);
  assert(g_phase_totals[0] == 201 && g_phase_totals[1] == 401);
  return 0;
}

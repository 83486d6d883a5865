// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_nevents R1@22 W2@25 W1@25
/* event_registry.c - an event log that main and the workers append to through one function.
 *
 * main records its start-up events through record_event() before any worker exists; then two
 * workers record one event each through the same function. record_event() reserves its slot
 * by reading g_nevents before taking the lock, so two workers can take the same slot: one
 * event is overwritten and the count is short.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_EVENTS 16

static int g_events[MAX_EVENTS]; /* guarded by g_lock */
static int g_nevents;            /* guarded by g_lock (but see record_event) */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static int record_event(int id) {
  int slot = g_nevents;
  pthread_mutex_lock(&g_lock);
  g_events[slot] = id;
  g_nevents = slot + 1;
  pthread_mutex_unlock(&g_lock);
  return slot;
}

static void *worker(void *arg) {
  record_event((int)(intptr_t)arg);
  return NULL;
}

int main(void) {
  record_event(1); /* "config loaded" */
  record_event(2); /* "listening" */
  pthread_t t[2];
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(10 + i));
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  int sum = 0;
  for (int i = 0; i < g_nevents; i++)
    sum += g_events[i];
  printf("%d events\n", g_nevents);
  assert(g_nevents == 4 && sum == 1 + 2 + 10 + 11);
  return 0;
}

/* Shutting down three workers by cancellation, each blocked at a different cancellation point:
 * one waits on a semaphore nobody posts, one polls in a sleep() loop, and one joins a thread
 * that never ends. Each has a cleanup handler; main cancels all three (the joiner first, then
 * what it joined), and checks each join returns PTHREAD_CANCELED after its handler ran.
 * Expected under ctrlsched: passes every seed. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <unistd.h>

static sem_t never_posted;
static int cleanups[4];
static pthread_t forever;

static void mark(void *slot) { *(int *)slot = 1; }

static void *waits_on_semaphore(void *arg) {
  (void)arg;
  pthread_cleanup_push(mark, &cleanups[0]);
  sem_wait(&never_posted);
  pthread_cleanup_pop(0);
  return NULL;
}

static void *polls(void *arg) {
  (void)arg;
  pthread_cleanup_push(mark, &cleanups[1]);
  for (;;) sleep(1);
  pthread_cleanup_pop(0);
  return NULL;
}

static void *runs_forever(void *arg) {
  (void)arg;
  pthread_cleanup_push(mark, &cleanups[3]);
  for (;;) usleep(1000);
  pthread_cleanup_pop(0);
  return NULL;
}

static void *joins(void *arg) {
  (void)arg;
  pthread_cleanup_push(mark, &cleanups[2]);
  pthread_join(forever, NULL);
  pthread_cleanup_pop(0);
  return NULL;
}

int main(void) {
  sem_init(&never_posted, 0, 0);
  pthread_t t[3];
  pthread_create(&forever, NULL, runs_forever, NULL);
  pthread_create(&t[0], NULL, waits_on_semaphore, NULL);
  pthread_create(&t[1], NULL, polls, NULL);
  pthread_create(&t[2], NULL, joins, NULL);
  for (int i = 2; i >= 0; i--) {
    void *result = NULL;
    assert(pthread_cancel(t[i]) == 0);
    assert(pthread_join(t[i], &result) == 0);
    assert(result == PTHREAD_CANCELED);
    assert(cleanups[i]);
  }
  void *result = NULL;
  pthread_cancel(forever);
  assert(pthread_join(forever, &result) == 0); /* the joiner was cancelled: it can be joined */
  assert(result == PTHREAD_CANCELED && cleanups[3]);
  sem_destroy(&never_posted);
  return 0;
}

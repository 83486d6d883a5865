/* A worker waits for jobs on a condition variable forever; at shutdown main cancels it. The
 * worker's cleanup handler unlocks the queue mutex, which POSIX says the cancelled wait has
 * re-acquired; main then checks the mutex is free and that the worker was cancelled.
 * Expected under ctrlsched: passes every seed. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t has_job = PTHREAD_COND_INITIALIZER;
static int jobs;
static int handled;
static int cleaned_up;

static void unlock_queue(void *arg) {
  cleaned_up = 1;
  pthread_mutex_unlock(arg);
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  pthread_cleanup_push(unlock_queue, &lock);
  for (;;) {
    while (jobs == 0) pthread_cond_wait(&has_job, &lock);
    jobs--;
    handled++;
  }
  pthread_cleanup_pop(1);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_mutex_lock(&lock);
  jobs = 2;
  pthread_cond_signal(&has_job);
  pthread_mutex_unlock(&lock);

  pthread_cancel(t);
  void *result = NULL;
  assert(pthread_join(t, &result) == 0);
  assert(result == PTHREAD_CANCELED);
  assert(cleaned_up);
  assert(pthread_mutex_trylock(&lock) == 0); /* the cleanup handler released it */
  assert(handled + jobs == 2);
  pthread_mutex_unlock(&lock);
  return 0;
}

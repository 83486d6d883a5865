/* pthread_join returns the thread's value (from return and from pthread_exit); a detached thread
 * (pthread_detach and PTHREAD_CREATE_DETACHED) runs to completion; joining a detached thread
 * that is still running gives EINVAL. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>

static sem_t may_finish, finished;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int detached_done; /* guarded by lock */

static void *returns(void *arg) { return (void *)((intptr_t)arg * 2); }

static void *exits(void *arg) {
  pthread_exit((void *)((intptr_t)arg + 100));
  return NULL;
}

static void *detached(void *arg) {
  (void)arg;
  sem_wait(&may_finish); /* stays alive until main has tried to join it */
  pthread_mutex_lock(&lock);
  detached_done++;
  pthread_mutex_unlock(&lock);
  sem_post(&finished);
  return (void *)1;
}

int main(void) {
  sem_init(&may_finish, 0, 0);
  sem_init(&finished, 0, 0);
  pthread_t a, b, c, d;
  pthread_create(&a, NULL, returns, (void *)21);
  pthread_create(&b, NULL, exits, (void *)5);
  pthread_create(&c, NULL, detached, NULL);
  assert(pthread_detach(c) == 0);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&d, &attr, detached, NULL);
  pthread_attr_destroy(&attr);

  assert(pthread_join(c, NULL) == EINVAL); /* c is detached and still running */
  assert(pthread_join(d, NULL) == EINVAL);
  void *value = NULL;
  assert(pthread_join(a, &value) == 0 && (intptr_t)value == 42);
  assert(pthread_join(b, &value) == 0 && (intptr_t)value == 105);
  sem_post(&may_finish);
  sem_post(&may_finish);
  sem_wait(&finished);
  sem_wait(&finished);
  pthread_mutex_lock(&lock);
  assert(detached_done == 2);
  pthread_mutex_unlock(&lock);
  return 0;
}

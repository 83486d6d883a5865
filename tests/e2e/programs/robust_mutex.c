/* Robust mutexes: a thread that exits holding one does not leave it locked forever; the next
 * locker gets EOWNERDEAD (and owns it), marks it consistent, and from then on it works normally.
 * While its owner lives, a robust mutex excludes like any other. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

static pthread_mutex_t robust;
static int inside;

static void *dies_holding(void *arg) {
  (void)arg;
  assert(pthread_mutex_lock(&robust) == 0);
  return NULL; /* exits while holding it, on purpose */
}

static void *user(void *arg) {
  (void)arg;
  int rc = pthread_mutex_lock(&robust);
  if (rc == EOWNERDEAD) {
    assert(pthread_mutex_consistent(&robust) == 0);
    rc = 0;
  }
  assert(rc == 0);
  inside++;
  assert(inside == 1);
  sched_yield();
  inside--;
  assert(pthread_mutex_unlock(&robust) == 0);
  return NULL;
}

int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&robust, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t t, u1, u2;
  pthread_create(&t, NULL, dies_holding, NULL);
  pthread_join(t, NULL);
  pthread_create(&u1, NULL, user, NULL);
  pthread_create(&u2, NULL, user, NULL);
  pthread_join(u1, NULL);
  pthread_join(u2, NULL);
  assert(pthread_mutex_lock(&robust) == 0); /* consistent again: a plain lock */
  assert(pthread_mutex_unlock(&robust) == 0);
  return 0;
}

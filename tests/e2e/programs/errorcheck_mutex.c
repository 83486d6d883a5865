/* Error codes: an errorcheck mutex relocked by its owner gives EDEADLK, unlocked by a non-owner
 * gives EPERM (and so does unlocking it when nobody holds it); trylock of a held mutex (normal
 * and errorcheck) gives EBUSY from another thread. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t ec, normal = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_cv = PTHREAD_COND_INITIALIZER;
static int held;     /* guarded by state_lock: main holds ec and normal */
static int checked;  /* guarded by state_lock: the other thread has checked */

static void *other(void *arg) {
  (void)arg;
  pthread_mutex_lock(&state_lock);
  while (!held) pthread_cond_wait(&state_cv, &state_lock);
  pthread_mutex_unlock(&state_lock);
  assert(pthread_mutex_unlock(&ec) == EPERM);
  assert(pthread_mutex_trylock(&ec) == EBUSY);
  assert(pthread_mutex_trylock(&normal) == EBUSY);
  pthread_mutex_lock(&state_lock);
  checked = 1;
  pthread_cond_signal(&state_cv);
  pthread_mutex_unlock(&state_lock);
  /* Blocks until main unlocks, then owns it. */
  assert(pthread_mutex_lock(&ec) == 0);
  assert(pthread_mutex_lock(&ec) == EDEADLK);
  assert(pthread_mutex_unlock(&ec) == 0);
  return NULL;
}

int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&ec, &attr);
  pthread_mutexattr_destroy(&attr);
  assert(pthread_mutex_unlock(&ec) == EPERM); /* nobody holds it */
  pthread_t t;
  pthread_create(&t, NULL, other, NULL);
  assert(pthread_mutex_lock(&ec) == 0);
  assert(pthread_mutex_lock(&ec) == EDEADLK);
  assert(pthread_mutex_lock(&normal) == 0);
  pthread_mutex_lock(&state_lock);
  held = 1;
  pthread_cond_signal(&state_cv);
  while (!checked) pthread_cond_wait(&state_cv, &state_lock);
  pthread_mutex_unlock(&state_lock);
  assert(pthread_mutex_unlock(&normal) == 0);
  assert(pthread_mutex_unlock(&ec) == 0);
  assert(pthread_mutex_unlock(&ec) == EPERM); /* already released */
  pthread_join(t, NULL);
  return 0;
}

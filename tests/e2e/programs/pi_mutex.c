/* Two threads update a shared total under a priority-inheritance mutex (as real-time code does
 * to avoid priority inversion). ctrlsched ignores thread priorities, so the mutex is explored as
 * a plain one and the run carries a note saying so.
 * Expected under ctrlsched: passes every seed, with the note. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock;
static long total;

static void *add(void *arg) {
  for (int i = 0; i < 3; i++) {
    assert(pthread_mutex_lock(&lock) == 0);
    long seen = total;
    total = seen + (long)arg;
    assert(pthread_mutex_unlock(&lock) == 0);
  }
  return NULL;
}

int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  assert(pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) == 0);
  assert(pthread_mutex_init(&lock, &attr) == 0);
  pthread_mutexattr_destroy(&attr);
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, add, (void *)(i + 1));
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  assert(total == 9);
  pthread_mutex_destroy(&lock);
  return 0;
}

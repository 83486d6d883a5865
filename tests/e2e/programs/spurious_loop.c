/* Waits in predicate loops, so spurious wakeups (--spurious-wakeups) must not break it: a
 * bounded buffer with one producer and two consumers. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define ITEMS 4
#define CAP 1

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static int count, produced, consumed, done;

static void *producer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; i++) {
    pthread_mutex_lock(&lock);
    while (count == CAP) pthread_cond_wait(&not_full, &lock);
    count++, produced++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
  }
  pthread_mutex_lock(&lock);
  done = 1;
  pthread_cond_broadcast(&not_empty);
  pthread_mutex_unlock(&lock);
  return NULL;
}

static void *consumer(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (count == 0 && !done) pthread_cond_wait(&not_empty, &lock);
    if (count == 0) {
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    assert(count > 0);
    count--, consumed++;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&lock);
  }
}

int main(void) {
  pthread_t p, c1, c2;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c1, NULL, consumer, NULL);
  pthread_create(&c2, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c1, NULL);
  pthread_join(c2, NULL);
  assert(produced == ITEMS && consumed == ITEMS && count == 0);
  return 0;
}

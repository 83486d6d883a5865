/* Happens-before through a condition-variable handoff (built instrumented for traces). The
 * producer writes `payload` before it sets `ready` and signals; the consumer reads `payload` after
 * its wait loop ends: ordered. The producer writes `unrelated` after unlocking, the consumer reads
 * it after unlocking: concurrent. Prints the addresses (see hb_create_join.c). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
int ready, payload, unrelated, seen_unrelated;

static void *producer(void *arg) {
  (void)arg;
  payload = 7;
  pthread_mutex_lock(&lock);
  ready = 1;
  pthread_cond_signal(&changed);
  pthread_mutex_unlock(&lock);
  unrelated = 1;
  return NULL;
}

static void *consumer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  while (!ready) pthread_cond_wait(&changed, &lock);
  pthread_mutex_unlock(&lock);
  assert(payload == 7);
  seen_unrelated = unrelated;
  return NULL;
}

int main(void) {
  printf("payload=%p\nunrelated=%p\n", (void *)&payload, (void *)&unrelated);
  fflush(stdout);
  pthread_t p, c;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}

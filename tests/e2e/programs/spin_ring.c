/* spin_ring.c - a correct single-producer, single-consumer ring whose both sides spin: the
 * producer on "full" (it reads the tail and the head), the consumer on "empty" (the head and the
 * tail). Instrumented, every read is a scheduling point; a spin over two locations must still
 * count as a spin, or PCT keeps re-running a higher-priority spinner until --max-steps
 * (docs/model.md, "Uncontrolled spinning").
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define SLOTS 4
#define ITEMS 32

static int ring[SLOTS];
static unsigned head, tail;

static void *produce(void *arg) {
  (void)arg;
  for (int item = 1; item <= ITEMS; ++item) {
    unsigned t;
    for (;;) {
      t = __atomic_load_n(&tail, __ATOMIC_RELAXED);
      if (t - __atomic_load_n(&head, __ATOMIC_ACQUIRE) < SLOTS) break;
    }
    ring[t % SLOTS] = item;
    __atomic_store_n(&tail, t + 1, __ATOMIC_RELEASE);
  }
  return NULL;
}

static void *consume(void *arg) {
  long *sum = arg;
  for (int taken = 0; taken < ITEMS; ++taken) {
    unsigned h;
    for (;;) {
      h = __atomic_load_n(&head, __ATOMIC_RELAXED);
      if (__atomic_load_n(&tail, __ATOMIC_ACQUIRE) != h) break;
    }
    *sum += ring[h % SLOTS];
    __atomic_store_n(&head, h + 1, __ATOMIC_RELEASE);
  }
  return NULL;
}

int main(void) {
  long sum = 0;
  pthread_t consumer, producer;
  pthread_create(&consumer, NULL, consume, &sum);
  pthread_create(&producer, NULL, produce, NULL);
  pthread_join(producer, NULL);
  pthread_join(consumer, NULL);
  assert(sum == (long)ITEMS * (ITEMS + 1) / 2);
  printf("sum %ld\n", sum);
  return 0;
}

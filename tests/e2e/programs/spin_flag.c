/* A consumer spin-waits on a volatile flag that the producer sets once the data is ready: a
 * correct (if wasteful) hand-off with no pthread call inside the loop, as found in older code.
 * Not instrumented, so the loop has no scheduling point.
 * Expected under ctrlsched: passes every seed; when the consumer spins while the producer waits
 * for its turn, the shim preempts it and the run carries a note. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static volatile int ready;
static int data[8];

static void *consumer(void *arg) {
  (void)arg;
  while (!ready) {
    /* spin */
  }
  __sync_synchronize();
  for (int i = 0; i < 8; i++) assert(data[i] == i * i);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, consumer, NULL);
  for (int i = 0; i < 8; i++) data[i] = i * i;
  __sync_synchronize();
  ready = 1;
  pthread_join(t, NULL);
  return 0;
}

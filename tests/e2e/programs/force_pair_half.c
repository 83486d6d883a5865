/* force_pair_half.c - a ring buffer is shrunk while a monitor checks its occupancy. The resize
 * stores the new capacity and then the clamped fill level: two atomics that are only valid
 * together. The monitor reads the capacity, then the fill level, and expects fill <= capacity;
 * between the two stores it can see the new capacity with the old fill level. The cause is two
 * orders on two variables: the capacity's store before the monitor's load of it, and the fill
 * level's load before its store. Either half forced alone leaves the other to chance. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int capacity = 16;
static atomic_int filled = 12;

static void *shrink(void *arg) {
  (void)arg;
  atomic_store(&capacity, 8);
  atomic_store(&filled, 8); /* clamp to the new capacity */
  return NULL;
}

static void *monitor(void *arg) {
  (void)arg;
  for (int round = 0; round < 2; round++) {
    const int cap = atomic_load(&capacity);
    const int fill = atomic_load(&filled);
    assert(fill <= cap && "ring over capacity");
  }
  return NULL;
}

int main(void) {
  pthread_t resizer, watcher;
  pthread_create(&watcher, NULL, monitor, NULL);
  pthread_create(&resizer, NULL, shrink, NULL);
  pthread_join(resizer, NULL);
  pthread_join(watcher, NULL);
  printf("capacity %d, filled %d\n", atomic_load(&capacity), atomic_load(&filled));
  return 0;
}

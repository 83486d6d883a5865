/* A parallel sum with 1000 threads alive at once: each thread sums its slice of an array into
 * its own slot, a barrier makes them wait for each other, then main joins them all and adds the
 * slots. Must pass every seed: no data is shared without the barrier/join ordering it. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

enum { kThreads = 1000, kSlice = 8 };

static int values[kThreads * kSlice];
static long partial[kThreads];
static pthread_barrier_t all_started;

static void *sum_slice(void *arg) {
  long index = (long)arg;
  long sum = 0;
  for (int i = 0; i < kSlice; i++) sum += values[index * kSlice + i];
  partial[index] = sum;
  pthread_barrier_wait(&all_started);
  return NULL;
}

int main(void) {
  for (int i = 0; i < kThreads * kSlice; i++) values[i] = i % 97;
  pthread_barrier_init(&all_started, NULL, kThreads + 1);
  static pthread_t threads[kThreads];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);  // 1000 default stacks would be 8 GB of address space
  for (long i = 0; i < kThreads; i++) {
    int rc = pthread_create(&threads[i], &attr, sum_slice, (void *)i);
    assert(rc == 0);
  }
  pthread_attr_destroy(&attr);
  pthread_barrier_wait(&all_started);
  long total = 0, expected = 0;
  for (int i = 0; i < kThreads; i++) {
    pthread_join(threads[i], NULL);
    total += partial[i];
  }
  for (int i = 0; i < kThreads * kSlice; i++) expected += values[i];
  assert(total == expected);
  pthread_barrier_destroy(&all_started);
  printf("sum %ld over %d threads\n", total, kThreads);
  return 0;
}

/* A start gate and a completion count with C11 atomics: two workers spin (relaxed loads) until
 * main opens the gate, each adds its share, and main spins (relaxed loads, then an acquire
 * fence) until both are done. Every thread spins at some point; none calls pthread inside a loop.
 * Expected under ctrlsched: passes every seed (spinners are preempted; runs carry a note). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int gate;
static atomic_int done;
static long partial[2];

static void *worker(void *arg) {
  long index = (long)arg;
  while (!atomic_load_explicit(&gate, memory_order_relaxed)) {
    /* spin */
  }
  atomic_thread_fence(memory_order_acquire);
  partial[index] = (index + 1) * 100;
  atomic_fetch_add_explicit(&done, 1, memory_order_release);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  atomic_store_explicit(&gate, 1, memory_order_release);
  while (atomic_load_explicit(&done, memory_order_relaxed) != 2) {
    /* spin */
  }
  atomic_thread_fence(memory_order_acquire);
  assert(partial[0] + partial[1] == 300);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return 0;
}

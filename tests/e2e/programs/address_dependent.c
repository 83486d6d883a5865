/* A program whose interleavings depend on where things are in memory, the way real programs
 * depend on it through pointer-keyed hash tables, sorting by address or alignment-dependent
 * loops: how often each worker takes the lock (and, built instrumented, how many accesses it
 * makes) follows from the low bits of a heap block's address, of a thread's stack and of main's
 * stack. Then a lost update on `total` that only some schedules expose.
 *
 * ctrlsched must replay it exactly: a seed run, the replay of its handle and the replay of its
 * saved schedule must see the same addresses, so the shim's own start-up must leave the test's
 * heap, its mappings and its initial stack alike in every mode (docs/decisions.md). */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int total;
static unsigned rounds_from_heap;

static unsigned low_bits(const void *p) { return (unsigned)(((uintptr_t)p >> 4) & 7); }

static void *worker(void *arg) {
  int on_my_stack = 0;
  unsigned rounds = 1 + rounds_from_heap + low_bits(&on_my_stack) + (unsigned)(uintptr_t)arg;
  for (unsigned i = 0; i < rounds; ++i) {
    pthread_mutex_lock(&lock);
    pthread_mutex_unlock(&lock);
  }
  int seen = total; /* unprotected read-modify-write: the bug */
  pthread_mutex_lock(&lock);
  pthread_mutex_unlock(&lock);
  total = seen + 1;
  return NULL;
}

int main(void) {
  int on_main_stack = 0;
  void *block = malloc(24);
  rounds_from_heap = low_bits(block) + low_bits(&on_main_stack);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)(uintptr_t)0);
  pthread_create(&b, NULL, worker, (void *)(uintptr_t)1);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  free(block);
  assert(total == 2);
  return 0;
}

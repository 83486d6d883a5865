/* A worker's helper, inlined by the compiler, checks a table entry that was never set.
 * Expected: the assertion's first frame is the helper at its own line, named after the helper
 * (the ELF symbol at that address is the worker it was inlined into), as the headline names it. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct slot {
  int *counter;
};

static struct slot table[4]; /* table[2].counter is never set */

static inline __attribute__((always_inline)) int slot_value(const struct slot *s) {
  assert(s->counter != NULL && "slot was never set"); /* INLINED_LINE */
  return *s->counter;
}

static void *reader(void *arg) {
  const int index = (int)(long)arg;
  return (void *)(long)slot_value(&table[index]);
}

int main(void) {
  static int one = 1;
  table[0].counter = &one;
  pthread_t a, b;
  pthread_create(&a, NULL, reader, (void *)0L);
  pthread_create(&b, NULL, reader, (void *)2L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

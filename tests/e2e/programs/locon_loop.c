/* Locon's Figure 4 as a program: a writer sets x and y to the same value in each of two loop
 * iterations; a reader reads x and then y and expects them equal. Nothing makes the pair of
 * writes (or the pair of reads) atomic: a multi-variable atomicity violation that needs the
 * iteration of each write to be told apart. Built with -O0 so both iterations' stores stay in
 * the loop. Failure: assertion `var1 == var2`. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int x, y;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    x = i + 1;
    y = i + 1;
  }
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  int var1 = x;
  int var2 = y;
  assert(var1 == var2 && "x and y out of step");
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

/* The second worker (T2) dereferences a null pointer. Expected: failure kind signal, SIGSEGV,
 * naming T2 and this file's line of the dereference. */
#include <pthread.h>
#include <stddef.h>

static int *volatile nowhere; /* NULL */

static void *fine(void *arg) {
  (void)arg;
  return NULL;
}

static void *crasher(void *arg) {
  (void)arg;
  return (void *)(long)*nowhere; /* SEGV_LINE */
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, fine, NULL);
  pthread_create(&b, NULL, crasher, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

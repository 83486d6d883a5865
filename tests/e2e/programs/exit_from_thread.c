/* A worker calls exit(3) while main waits for it. Expected: failure kind exit, status 3. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static void *quitter(void *arg) {
  (void)arg;
  exit(3);
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, quitter, NULL);
  pthread_join(t, NULL);
  return 0;
}

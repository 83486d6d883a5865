/* A worker spins forever without any scheduling point (no pthread call, no yield, not
 * instrumented); main waits to join it. Expected under ctrlsched --timeout 1: outcome timeout. */
#include <pthread.h>
#include <stddef.h>

static volatile unsigned long spins;

static void *spinner(void *arg) {
  (void)arg;
  for (;;) spins++;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, spinner, NULL);
  pthread_join(t, NULL);
  return 0;
}

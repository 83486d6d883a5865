/* Failure kind: signal (SIGSEGV). The main thread starts a worker and only then publishes the
 * configuration the worker reads; the worker takes the lock and dereferences the pointer, which
 * is still NULL when it runs first. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct config {
  int retries;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct config *current;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int retries = current->retries; /* BUG: current may not be published yet */
  pthread_mutex_unlock(&lock);
  printf("retries %d\n", retries);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  struct config *c = malloc(sizeof *c);
  c->retries = 3;
  pthread_mutex_lock(&lock);
  current = c;
  pthread_mutex_unlock(&lock);
  pthread_join(t, NULL);
  free(c);
  return 0;
}

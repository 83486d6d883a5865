/* A tool whose normal exit status is 6 (it reports "nothing to do" that way, in every native
 * run) and which also has a real bug: a worker dereferences a configuration pointer that main
 * publishes only after starting it, a SIGSEGV on some interleavings. Without
 * --pass-exit-codes every seed "fails" and the crash hides among the exit-6 failures. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int *limit;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int value = *limit; /* BUG: limit may still be NULL */
  pthread_mutex_unlock(&lock);
  printf("limit %d\n", value);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  static int configured = 10;
  pthread_mutex_lock(&lock);
  limit = &configured;
  pthread_mutex_unlock(&lock);
  pthread_join(t, NULL);
  return 6; /* nothing to do */
}

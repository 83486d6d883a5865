/* Happens-before through thread creation and join (built instrumented for traces). main writes
 * `before_create` and then creates the child, which reads it: ordered. The child writes
 * `by_child`, main reads it after the join: ordered. Both write `racy` between the create and the
 * join: concurrent. Prints the variables' addresses so the e2e test can find their accesses in
 * the trace (addresses are stable under ctrlsched: no ASLR). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

int before_create, by_child, racy;

static void *child(void *arg) {
  (void)arg;
  int seen = before_create;
  by_child = seen + 1;
  racy = 1;
  return NULL;
}

int main(void) {
  printf("before_create=%p\nby_child=%p\nracy=%p\n", (void *)&before_create, (void *)&by_child, (void *)&racy);
  fflush(stdout);
  before_create = 41;
  pthread_t t;
  pthread_create(&t, NULL, child, NULL); /* CREATE_LINE */
  racy = 2;
  pthread_join(t, NULL); /* JOIN_LINE */
  assert(by_child == 42);
  return 0;
}

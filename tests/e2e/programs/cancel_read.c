/* A reader thread blocks in read() on a pipe nobody writes (a call ctrlsched does not model: the
 * watchdog releases the thread); at shutdown main cancels it. read() is a cancellation point, so
 * the reader's cleanup handler runs and its join returns PTHREAD_CANCELED.
 * Expected under ctrlsched: passes every seed (a run may carry the watchdog's note). */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

static int fds[2];
static int closed_by_cleanup;

static void close_pipe(void *arg) {
  (void)arg;
  close(fds[0]);
  closed_by_cleanup = 1;
}

static void *reader(void *arg) {
  (void)arg;
  char c;
  pthread_cleanup_push(close_pipe, NULL);
  ssize_t n = read(fds[0], &c, 1); /* nobody writes */
  assert(n == 1);
  pthread_cleanup_pop(1);
  return NULL;
}

int main(void) {
  assert(pipe(fds) == 0);
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  assert(pthread_cancel(t) == 0);
  void *result = NULL;
  assert(pthread_join(t, &result) == 0);
  assert(result == PTHREAD_CANCELED);
  assert(closed_by_cleanup);
  close(fds[1]);
  return 0;
}

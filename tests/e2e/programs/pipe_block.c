/* A reader thread blocks in read() on a pipe (a call the shim does not model); main writes to
 * the pipe only after it has done some synchronized work of its own.
 * Expected under ctrlsched: passes — the watchdog releases the blocked reader so the writer can
 * run (the run may carry a note about it). */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

static int fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int work;

static void *reader(void *arg) {
  (void)arg;
  char c = 0;
  ssize_t n = read(fds[0], &c, 1); /* blocks until main writes */
  assert(n == 1 && c == 'x');
  return NULL;
}

int main(void) {
  assert(pipe(fds) == 0);
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&lock);
    work++;
    pthread_mutex_unlock(&lock);
  }
  assert(write(fds[1], "x", 1) == 1);
  pthread_join(t, NULL);
  assert(work == 3);
  return 0;
}

/* A test that expects to start in an empty working directory, as many do: it creates its
 * result file with O_EXCL, two threads append to it under a mutex, and it checks the file holds
 * exactly their lines. It does not remove the file (tests often leave their output behind).
 * Runs sharing a directory therefore interfere: a run that finds the file of an earlier run exits
 * with status 2 at once (after a handful of steps, which also changes PCT's calibrated k), and
 * two runs at once may append to the same file. With --private-cwd every run passes. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fd;

static void *append(void *arg) {
  const char *line = arg;
  for (int i = 0; i < 10; i++) {
    pthread_mutex_lock(&lock);
    ssize_t n = write(fd, line, strlen(line));
    assert(n == (ssize_t)strlen(line));
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  fd = open("result.txt", O_CREAT | O_EXCL | O_RDWR, 0644);
  if (fd < 0) {
    fprintf(stderr, "result.txt: %s (not a fresh directory)\n", strerror(errno));
    return 2;
  }
  pthread_t a, b;
  pthread_create(&a, NULL, append, "a\n");
  pthread_create(&b, NULL, append, "b\n");
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  char buffer[128];
  ssize_t size = pread(fd, buffer, sizeof buffer, 0);
  assert(size == 40);
  close(fd);
  return 0;
}

/* A producer/consumer pair connected by a pipe: the consumer blocks in read() (a system call
 * ctrlsched does not model: its watchdog must release the baton) while the producer computes
 * lines under a mutex and writes them. Must pass every seed with every line received in order. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { kLines = 20 };

static int fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int produced;

static void *producer(void *arg) {
  (void)arg;
  for (int i = 0; i < kLines; i++) {
    pthread_mutex_lock(&lock);
    int n = produced++;
    pthread_mutex_unlock(&lock);
    char line[16];
    int len = snprintf(line, sizeof line, "%03d\n", n);
    ssize_t w = write(fds[1], line, (size_t)len);
    assert(w == len);
  }
  close(fds[1]);
  return NULL;
}

static void *consumer(void *arg) {
  char *out = arg;
  size_t used = 0;
  ssize_t n;
  while ((n = read(fds[0], out + used, 4 * kLines + 1 - used)) > 0) used += (size_t)n;
  out[used] = '\0';
  return NULL;
}

int main(void) {
  static char received[4 * kLines + 2];
  int rc = pipe(fds);
  assert(rc == 0);
  pthread_t p, c;
  pthread_create(&c, NULL, consumer, received);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  assert(strlen(received) == 4 * kLines);
  for (int i = 0; i < kLines; i++) {
    char expected[8];
    snprintf(expected, sizeof expected, "%03d\n", i);
    assert(memcmp(received + 4 * i, expected, 4) == 0);
  }
  printf("%d lines through the pipe\n", kLines);
  return 0;
}

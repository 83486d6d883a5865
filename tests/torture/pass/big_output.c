/* A report writer producing 10 MB on stdout: four threads format their part of a table into
 * private buffers, then write them in thread order, each waiting for its turn on a condition
 * variable. Must pass every seed, and the output is the same bytes every time (the e2e test
 * compares its size and checksum line). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kThreads = 4, kBytesPerThread = 10 * 1024 * 1024 / kThreads, kLine = 64 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static int turn;
static unsigned long checksum;

static void write_all(const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = write(STDOUT_FILENO, data, size);
    assert(n > 0);
    data += n;
    size -= (size_t)n;
  }
}

static void *writer(void *arg) {
  long id = (long)arg;
  char *part = malloc(kBytesPerThread);
  for (int i = 0; i < kBytesPerThread / kLine; i++) {
    char *line = part + (size_t)i * kLine;
    memset(line, 'a' + (int)id, kLine);
    snprintf(line, kLine, "thread %ld line %7d ", id, i);
    line[strlen(line)] = '.';
    line[kLine - 1] = '\n';
  }
  unsigned long sum = 0;
  for (int i = 0; i < kBytesPerThread; i++) sum = sum * 31 + (unsigned char)part[i];
  pthread_mutex_lock(&lock);
  while (turn != id) pthread_cond_wait(&turn_changed, &lock);
  write_all(part, kBytesPerThread);
  checksum = checksum * 1000003 + sum;
  turn++;
  pthread_cond_broadcast(&turn_changed);
  pthread_mutex_unlock(&lock);
  free(part);
  return NULL;
}

int main(void) {
  pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&threads[i], NULL, writer, (void *)i);
  for (int i = 0; i < kThreads; i++) pthread_join(threads[i], NULL);
  char summary[64];
  int n = snprintf(summary, sizeof summary, "bytes %d checksum %016lx\n", kThreads * kBytesPerThread, checksum);
  write_all(summary, (size_t)n);
  return 0;
}

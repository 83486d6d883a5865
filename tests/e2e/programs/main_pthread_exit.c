/* main ends with pthread_exit() while two workers still run: POSIX keeps the process alive until
 * the last thread exits, then it exits with status 0 (atexit handlers run then: the check below).
 * Expected under ctrlsched: passes. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&lock);
    count++;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

static void check_at_exit(void) {
  if (count != 6) {
    fprintf(stderr, "count = %d at exit, expected 6\n", count);
    _exit(7);
  }
}

int main(void) {
  atexit(check_at_exit);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_exit(NULL);
}

/* Failure kind: exit status. A worker validates the configuration version it reads; a reloader
 * bumps the version in two steps (two lock regions), and a worker that reads in between finds
 * the versions disagree and gives up with exit(3), as a daemon would on corrupt state. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int version, checksum_version;

static void *reloader(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  version = 2;
  pthread_mutex_unlock(&lock);
  /* BUG: the checksum is updated in a second critical section. */
  pthread_mutex_lock(&lock);
  checksum_version = 2;
  pthread_mutex_unlock(&lock);
  return NULL;
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int ok = version == checksum_version;
  pthread_mutex_unlock(&lock);
  if (!ok) {
    fprintf(stderr, "configuration is inconsistent, giving up\n");
    exit(3);
  }
  return NULL;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&r, NULL, reloader, NULL);
  pthread_create(&w, NULL, worker, NULL);
  pthread_join(r, NULL);
  pthread_join(w, NULL);
  return 0;
}

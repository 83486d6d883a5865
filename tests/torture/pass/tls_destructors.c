/* Per-thread buffers freed by thread-specific-data destructors: each worker allocates a buffer
 * stored under a pthread key, uses it, and exits without freeing it; the key's destructor frees
 * it and counts. A second key's destructor re-sets its value once, so the destructor pass runs
 * twice (POSIX: PTHREAD_DESTRUCTOR_ITERATIONS). Must pass every seed. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWorkers = 6 };

static pthread_key_t buffer_key, again_key;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int buffers_freed, again_calls;

static void free_buffer(void *buffer) {
  free(buffer);
  pthread_mutex_lock(&lock);
  buffers_freed++;
  pthread_mutex_unlock(&lock);
}

static void set_again(void *value) {
  pthread_mutex_lock(&lock);
  again_calls++;
  pthread_mutex_unlock(&lock);
  if (value == (void *)1) pthread_setspecific(again_key, (void *)2);  // one more round
}

static void *worker(void *arg) {
  char *buffer = malloc(64);
  snprintf(buffer, 64, "worker %ld", (long)arg);
  pthread_setspecific(buffer_key, buffer);
  pthread_setspecific(again_key, (void *)1);
  char *mine = pthread_getspecific(buffer_key);
  assert(mine == buffer && strncmp(mine, "worker", 6) == 0);
  return NULL;
}

int main(void) {
  pthread_key_create(&buffer_key, free_buffer);
  pthread_key_create(&again_key, set_again);
  pthread_t threads[kWorkers];
  for (long i = 0; i < kWorkers; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
  for (int i = 0; i < kWorkers; i++) pthread_join(threads[i], NULL);
  assert(buffers_freed == kWorkers);
  assert(again_calls == 2 * kWorkers);
  printf("%d buffers freed, %d destructor calls on the second key\n", buffers_freed, again_calls);
  return 0;
}

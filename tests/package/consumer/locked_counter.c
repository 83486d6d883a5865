// The same increments as racy_counter.c, under a mutex: passes under every interleaving.
#include <assert.h>
#include <pthread.h>

static int counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* add_one(void* unused) {
  (void)unused;
  pthread_mutex_lock(&lock);
  counter += 1;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t ids[2];
  for (int i = 0; i < 2; ++i) pthread_create(&ids[i], NULL, add_one, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(ids[i], NULL);
  assert(counter == 2);
  return 0;
}

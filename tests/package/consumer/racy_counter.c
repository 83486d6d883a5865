// Two threads add to a plain counter with no lock: `counter += 1` is a read then a write, and a
// switch between them loses an update. argv[1] (default 2) is the number of threads.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int counter;

static void* add_one(void* unused) {
  (void)unused;
  counter += 1;
  return NULL;
}

int main(int argc, char** argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 2;
  pthread_t ids[8];
  assert(threads >= 1 && threads <= 8);
  for (int i = 0; i < threads; ++i) pthread_create(&ids[i], NULL, add_one, NULL);
  for (int i = 0; i < threads; ++i) pthread_join(ids[i], NULL);
  assert(counter == threads);
  return 0;
}

/* The test bench_fibers.cc explores in-process, as a C program for process-mode ctrlsched: two
 * threads, each takes a mutex four times around a shared counter (create, 8 lock/unlock points,
 * join: about 20 scheduling points per run). */
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter = 0;

static void* worker(void* arg) {
  (void)arg;
  for (int i = 0; i < 4; ++i) {
    pthread_mutex_lock(&lock);
    ++counter;
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return counter == 8 ? 0 : 1;
}

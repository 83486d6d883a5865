/* The program of tests/inprocess/equivalence_test.cc, written with pthreads so the real shim can
 * run it: three workers take a mutex around a counter, one also signals a condition variable the
 * main thread waits on, and a worker yields. The in-process twin must make the same decisions. */
#include <pthread.h>
#include <sched.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int counter = 0;
static int done = 0;

static void* worker(void* arg) {
  long rounds = (long)arg;
  for (long i = 0; i < rounds; ++i) {
    pthread_mutex_lock(&lock);
    ++counter;
    pthread_mutex_unlock(&lock);
    if (i == 0) sched_yield();
  }
  pthread_mutex_lock(&lock);
  ++done;
  pthread_cond_signal(&done_cv);
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; ++i) pthread_create(&t[i], 0, worker, (void*)(i + 2));
  pthread_mutex_lock(&lock);
  while (done < 2) pthread_cond_wait(&done_cv, &lock);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < 3; ++i) pthread_join(t[i], 0);
  return counter == 9 ? 0 : 1;
}

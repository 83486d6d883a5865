/* A long run for the HTML report: its folds and row budget in e2e.reports.html (check_html.py)
 * and its render time (tests/bench/html_render.sh). THREADS threads (default 4)
 * each take a mutex ITERATIONS times (default 12500) around a shared counter, so the traced run
 * has about THREADS * ITERATIONS * 2 timeline steps (a lock and an unlock on different lines),
 * then main's assertion fails on purpose so that ctrlsched reports a group and draws its run. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter = 0;
static long iterations = 12500;

static void* worker(void* arg) {
  (void)arg;
  for (long i = 0; i < iterations; ++i) {
    pthread_mutex_lock(&lock);
    ++counter;
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 4;
  if (argc > 2) iterations = atol(argv[2]);
  if (threads < 1 || threads > 64 || iterations < 1) return 2;
  pthread_t t[64];
  for (int i = 0; i < threads; ++i) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < threads; ++i) pthread_join(t[i], 0);
  assert(counter < 0 && "fails on purpose: the run is what the benchmark draws");
  return 0;
}

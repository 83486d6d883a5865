// Memory-heavy micro program for the instrumentation overhead benchmark: multiplies two
// 180x180 matrices (about 12 million instrumented loads and stores).
//   matmul          the work runs on the main thread: every access point is on the fast path
//                   (only one thread can run).
//   matmul worker   the work runs on a second thread while main stays runnable (it yields until
//                   the worker is done), so every access point is a real decision of the
//                   strategy — which keeps the worker running.
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 180 };
static double a[N][N], b[N][N], c[N][N];

static void* multiply(void* arg) {
  (void)arg;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double sum = 0;
      for (int k = 0; k < N; k++) sum += a[i][k] * b[k][j];
      c[i][j] = sum;
    }
  return NULL;
}

static volatile int done;

static void* multiply_then_finish(void* arg) {
  multiply(arg);
  done = 1;
  return NULL;
}

int main(int argc, char** argv) {
  (void)argv;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = i + j;
      b[i][j] = i - j;
    }
  if (argc > 1) {
    pthread_t worker;
    pthread_create(&worker, NULL, multiply_then_finish, NULL);
    while (!done) sched_yield();
    pthread_join(worker, NULL);
  } else {
    multiply(NULL);
  }
  printf("%.1f\n", c[N - 1][N - 1]);
  return 0;
}

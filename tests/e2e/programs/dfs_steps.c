/* dfs_steps.c - worker threads that each take a fixed number of steps, for the exact schedule
 * counts of `--strategy dfs` (tests/e2e/dfs_test.cc, which derives the counts by hand).
 *
 * Usage: dfs_steps <threads> <steps> private|shared
 * main creates <threads> workers, then joins them in creation order. Each worker stores <steps>
 * times: into slots of its own (private: its steps are independent of the other workers') or into
 * one shared word (shared: every step depends on every other worker's). Built instrumented, each
 * store is one scheduling point and nothing else the program does is: main and the workers'
 * set-up are left uninstrumented (no_sanitize_thread), so the scheduling points are exactly the
 * stores and the pthread calls. Always passes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 4
#define MAX_STEPS 8
#define STRIDE 16 /* slots 64 bytes apart: distinct locations */

struct job {
  volatile int *slots;
  int stride;
  int steps;
};

static volatile int own[MAX_THREADS][MAX_STEPS * STRIDE];
static volatile int shared_word;
static struct job jobs[MAX_THREADS];

__attribute__((no_sanitize_thread, noinline)) static struct job load_job(void *arg) {
  return *(const struct job *)arg;
}

static void *worker(void *arg) {
  const struct job job = load_job(arg);
  for (int i = 0; i < job.steps; i++) job.slots[i * job.stride] = i;
  return NULL;
}

__attribute__((no_sanitize_thread)) int main(int argc, char **argv) {
  if (argc != 4) return 2;
  const int threads = atoi(argv[1]);
  const int steps = atoi(argv[2]);
  const int shared_mode = strcmp(argv[3], "shared") == 0;
  if (threads < 1 || threads > MAX_THREADS || steps < 0 || steps > MAX_STEPS) return 2;
  pthread_t t[MAX_THREADS];
  for (int i = 0; i < threads; i++) {
    jobs[i].slots = shared_mode ? &shared_word : own[i];
    jobs[i].stride = shared_mode ? 0 : STRIDE;
    jobs[i].steps = steps;
  }
  for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, &jobs[i]);
  for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
  return 0;
}

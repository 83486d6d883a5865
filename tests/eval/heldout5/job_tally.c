// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_done_cost R1@36 W2@36 W1@36
// A job queue drained by three workers: each pops the next job under the queue lock, runs it,
// and adds the job's cost to the running total of finished work.
#include <assert.h>
#include <stdio.h>
#include <threads.h>

#define JOBS 9
#define WORKERS 3

int g_jobs[JOBS];
int g_head;
mtx_t g_queue_mu;
long g_done_cost;   // total cost of the finished jobs
int g_debug_polls;  // debugging aid: how often workers looked at the queue (approximate)

static int run_job(int job) {
  int cost = 0;
  for (int i = 0; i <= job; ++i) cost += i % 3 + 1;
  return cost;
}

static int worker(void *arg) {
  (void)arg;
  for (;;) {
    g_debug_polls++;
    mtx_lock(&g_queue_mu);
    if (g_head == JOBS) {
      mtx_unlock(&g_queue_mu);
      break;
    }
    int job = g_jobs[g_head++];
    mtx_unlock(&g_queue_mu);
    int cost = run_job(job);
    g_done_cost += cost;
  }
  return 0;
}

int main(void) {
  long expected = 0;
  for (int i = 0; i < JOBS; ++i) {
    g_jobs[i] = 2 * i + 1;
    expected += run_job(g_jobs[i]);
  }
  mtx_init(&g_queue_mu, mtx_plain);
  thrd_t workers[WORKERS];
  for (int i = 0; i < WORKERS; ++i) thrd_create(&workers[i], worker, NULL);
  for (int i = 0; i < WORKERS; ++i) thrd_join(workers[i], NULL);
  assert(g_done_cost == expected);
  printf("finished work %ld, %d polls\n", g_done_cost, g_debug_polls);
  mtx_destroy(&g_queue_mu);
  return 0;
}

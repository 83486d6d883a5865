// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_stats R1@28 W2@28 W1@28
/* job_stats.c - a tiny worker pool that processes a batch of jobs and keeps statistics.
 *
 * Jobs are handed out under the queue lock, but the statistics are updated after the lock is
 * released ("they are only counters"). Two workers finishing jobs at once can lose an update of
 * `completed`, and the pool's final check finds fewer completed jobs than were queued.
 */
#include <pthread.h>
#include <stdio.h>

#define JOBS 6

struct stats {
  long completed;
  long failed;
};

static pthread_mutex_t g_queue_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_next_job;
static int g_jobs[JOBS] = {3, 1, 4, 1, 5, 9};
static struct stats g_stats;

static void finish(int result) {
  if (result < 0)
    g_stats.failed++;
  else
    g_stats.completed++;
}

static int take_job(void) {
  pthread_mutex_lock(&g_queue_lock);
  int job = g_next_job < JOBS ? g_jobs[g_next_job++] : -1;
  pthread_mutex_unlock(&g_queue_lock);
  return job;
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    int job = take_job();
    if (job < 0)
      break;
    finish(job * job);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld completed, %ld failed\n", g_stats.completed, g_stats.failed);
  if (g_stats.completed + g_stats.failed != JOBS) {
    fprintf(stderr, "pool: lost track of %ld jobs\n", JOBS - g_stats.completed - g_stats.failed);
    return 2;
  }
  return 0;
}

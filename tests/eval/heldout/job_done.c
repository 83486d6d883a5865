// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_done,g_done_cond R1@38 W2@28 signal2@29 wait1@39
/* job_done.c - main hands a job to a helper thread and waits for it to finish.
 *
 * The waiter does it by the book: it holds the mutex, tests the flag in a loop and waits. The
 * helper does not: it sets the flag and signals without taking the mutex ("a signal does not
 * need the lock"). If the helper runs between main's test and main's wait, the signal finds no
 * waiter and is lost; main waits forever.
 */
#include <pthread.h>
#include <stdio.h>

struct job {
  int input;
  int output;
};

static pthread_mutex_t g_done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_done_cond = PTHREAD_COND_INITIALIZER;
static int g_done;

static void *helper(void *arg) {
  struct job *job = arg;
  int result = 1;
  for (int i = 2; i <= job->input; i++)
    result *= i;
  job->output = result;
  g_done = 1;
  pthread_cond_signal(&g_done_cond);
  return NULL;
}

int main(void) {
  struct job job = {5, 0};
  pthread_t t;
  pthread_create(&t, NULL, helper, &job);
  pthread_mutex_lock(&g_done_lock);
  while (!g_done)
    pthread_cond_wait(&g_done_cond, &g_done_lock);
  pthread_mutex_unlock(&g_done_lock);
  pthread_join(t, NULL);
  printf("5! = %d\n", job.output);
  return 0;
}

/* pthread_mutex_timedlock against a holder that keeps the mutex across scheduling points: it
 * may time out (ETIMEDOUT) or succeed (0), and when it returns 0 the caller must hold the mutex
 * alone. Notes "timeout" / "acquired" so the test can check both paths were explored. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <time.h>

#include "note.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int inside;

static void *holder(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  inside++;
  assert(inside == 1);
  for (int i = 0; i < 3; i++) sched_yield();
  inside--;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(int argc, char **argv) {
  note_init(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, holder, NULL);
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 1;
  int rc = pthread_mutex_timedlock(&lock, &deadline);
  assert(rc == 0 || rc == ETIMEDOUT);
  if (rc == 0) {
    note("acquired");
    inside++;
    assert(inside == 1 && "timedlock returned 0 without exclusive ownership");
    sched_yield();
    inside--;
    assert(pthread_mutex_unlock(&lock) == 0);
  } else {
    note("timeout");
  }
  pthread_join(t, NULL);
  return 0;
}

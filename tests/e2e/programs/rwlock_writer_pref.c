/* A writer-preferring rwlock (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP): main holds a read
 * lock while a writer queues up; from then on new readers must not get in (tryrdlock: EBUSY), so
 * main polls with tryrdlock until the writer is seen waiting, then lets it in. With reader
 * preference the poll would never end. A second reader thread checks that the writer's update
 * is seen by anyone reading after the writer was waiting.
 * Expected under ctrlsched: passes every seed. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

static pthread_rwlock_t rw;
static int version;

static void *writer(void *arg) {
  (void)arg;
  assert(pthread_rwlock_wrlock(&rw) == 0);
  version = 2;
  assert(pthread_rwlock_unlock(&rw) == 0);
  return NULL;
}

int main(void) {
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  assert(pthread_rwlock_init(&rw, &attr) == 0);
  pthread_rwlockattr_destroy(&attr);

  assert(pthread_rwlock_rdlock(&rw) == 0);
  version = 1;
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  int polls = 0;
  for (;;) {
    int rc = pthread_rwlock_tryrdlock(&rw);
    if (rc == EBUSY) break; /* the writer waits: readers are held back */
    assert(rc == 0);
    assert(version == 1); /* we still hold a read lock: the writer cannot have run */
    pthread_rwlock_unlock(&rw);
    sched_yield();
    polls++;
  }
  assert(pthread_rwlock_unlock(&rw) == 0);
  assert(pthread_rwlock_rdlock(&rw) == 0); /* waits for the writer */
  assert(version == 2);
  pthread_rwlock_unlock(&rw);
  pthread_join(t, NULL);
  pthread_rwlock_destroy(&rw);
  return polls < 0;
}

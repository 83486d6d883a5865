/* pthread_cond_timedwait returns ETIMEDOUT, or 0 with the predicate true (no spurious wakeups
 * unless asked for); either way it returns with the mutex held. Notes "timeout" / "signalled". */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "note.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *setter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(int argc, char **argv) {
  note_init(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, setter, NULL);
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 1;
  pthread_mutex_lock(&lock);
  int rc = 0;
  if (!ready) {
    rc = pthread_cond_timedwait(&cv, &lock, &deadline);
    assert(rc == 0 || rc == ETIMEDOUT);
    assert(pthread_mutex_trylock(&lock) == EBUSY && "timedwait returned without the mutex");
    if (rc == 0) {
      assert(ready && "timedwait returned 0 without a signal");
      note("signalled");
    } else {
      note("timeout");
    }
  }
  pthread_mutex_unlock(&lock);
  pthread_join(t, NULL);
  return 0;
}

/* C11's clock, timespec_get(TIME_UTC), reads the same clock as clock_gettime(CLOCK_REALTIME):
 * under ctrlsched both are the virtual clock, natively both the wall clock, so they agree to
 * well under a second either way. A deadline computed from it bounds a C11 timed wait, which
 * either times out or is signalled. Notes "timeout" / "signalled". */
#include <assert.h>
#include <threads.h>
#include <time.h>

#include "note.h"

static mtx_t lock;
static cnd_t cv;
static int ready;

static long long nanos_between(const struct timespec *from, const struct timespec *to) {
  return (long long)(to->tv_sec - from->tv_sec) * 1000000000LL + (to->tv_nsec - from->tv_nsec);
}

static int setter(void *arg) {
  (void)arg;
  mtx_lock(&lock);
  ready = 1;
  cnd_signal(&cv);
  mtx_unlock(&lock);
  return 0;
}

int main(int argc, char **argv) {
  note_init(argc, argv);
  mtx_init(&lock, mtx_plain);
  cnd_init(&cv);
  struct timespec c11_now, posix_now;
  assert(timespec_get(&c11_now, TIME_UTC) == TIME_UTC);
  clock_gettime(CLOCK_REALTIME, &posix_now);
  const long long apart = nanos_between(&c11_now, &posix_now);
  assert(apart >= 0 && apart < 1000000000LL && "timespec_get and clock_gettime read different clocks");

  thrd_t t;
  thrd_create(&t, setter, NULL);
  struct timespec deadline = c11_now;
  deadline.tv_sec += 1;
  mtx_lock(&lock);
  int rc = thrd_success;
  while (!ready && rc == thrd_success) rc = cnd_timedwait(&cv, &lock, &deadline);
  assert(rc == thrd_success || rc == thrd_timedout);
  note(ready ? "signalled" : "timeout");
  mtx_unlock(&lock);
  thrd_join(t, NULL);
  cnd_destroy(&cv);
  mtx_destroy(&lock);
  return 0;
}

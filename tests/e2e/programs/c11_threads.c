/* C11 <threads.h>: thrd_create/thrd_join return the thread's result, mtx_t (plain and recursive)
 * excludes, cnd_t signal/broadcast wake predicate-loop waiters, mtx_timedlock times out or
 * holds, call_once runs once, thrd_yield and thrd_sleep are scheduling points. */
#include <assert.h>
#include <stddef.h>
#include <threads.h>
#include <time.h>

#define WORKERS 3

static once_flag once = ONCE_FLAG_INIT;
static int once_runs;
static mtx_t lock, rec;
static cnd_t changed;
static int counter, inside, started, go; /* guarded by lock */

static void init_once(void) { once_runs++; }

static int worker(void *arg) {
  int id = *(int *)arg;
  call_once(&once, init_once);
  assert(mtx_lock(&lock) == thrd_success);
  started++;
  cnd_broadcast(&changed);
  while (!go) assert(cnd_wait(&changed, &lock) == thrd_success);
  inside++;
  assert(inside == 1);
  int seen = counter;
  thrd_yield();
  counter = seen + 1;
  inside--;
  assert(mtx_unlock(&lock) == thrd_success);

  assert(mtx_lock(&rec) == thrd_success);
  assert(mtx_lock(&rec) == thrd_success); /* recursive */
  struct timespec nap = {0, 1000};
  thrd_sleep(&nap, NULL);
  assert(mtx_unlock(&rec) == thrd_success);
  assert(mtx_unlock(&rec) == thrd_success);
  return id * 10;
}

int main(void) {
  assert(mtx_init(&lock, mtx_plain) == thrd_success);
  assert(mtx_init(&rec, mtx_plain | mtx_recursive) == thrd_success);
  assert(cnd_init(&changed) == thrd_success);
  thrd_t t[WORKERS];
  int ids[WORKERS];
  for (int i = 0; i < WORKERS; i++) {
    ids[i] = i + 1;
    assert(thrd_create(&t[i], worker, &ids[i]) == thrd_success);
  }
  assert(mtx_lock(&lock) == thrd_success);
  while (started < WORKERS) assert(cnd_wait(&changed, &lock) == thrd_success);
  go = 1;
  assert(cnd_broadcast(&changed) == thrd_success);
  assert(mtx_unlock(&lock) == thrd_success);

  /* A timed lock against the workers: it may time out, or it holds the lock. */
  mtx_t timed;
  assert(mtx_init(&timed, mtx_timed) == thrd_success);
  struct timespec deadline;
  timespec_get(&deadline, TIME_UTC);
  deadline.tv_sec += 1;
  assert(mtx_timedlock(&timed, &deadline) == thrd_success); /* uncontended: succeeds */
  assert(mtx_trylock(&timed) == thrd_busy);
  assert(mtx_unlock(&timed) == thrd_success);

  for (int i = 0; i < WORKERS; i++) {
    int result = -1;
    assert(thrd_join(t[i], &result) == thrd_success);
    assert(result == (i + 1) * 10);
  }
  assert(counter == WORKERS);
  assert(once_runs == 1);
  mtx_destroy(&timed);
  mtx_destroy(&rec);
  mtx_destroy(&lock);
  cnd_destroy(&changed);
  return 0;
}

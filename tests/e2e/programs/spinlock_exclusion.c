/* pthread spinlocks: mutual exclusion with a scheduling point inside the critical section, and
 * pthread_spin_trylock gives EBUSY while another thread holds the lock. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#define THREADS 3
#define ITERS 2

static pthread_spinlock_t spin;
static int counter, inside;

static void *worker(void *arg) {
  int use_try = *(int *)arg;
  for (int i = 0; i < ITERS; i++) {
    if (use_try) {
      int rc;
      while ((rc = pthread_spin_trylock(&spin)) != 0) {
        assert(rc == EBUSY);
        sched_yield();
      }
    } else {
      assert(pthread_spin_lock(&spin) == 0);
    }
    inside++;
    assert(inside == 1 && "two threads inside a spinlock");
    int seen = counter;
    sched_yield();
    counter = seen + 1;
    inside--;
    assert(pthread_spin_unlock(&spin) == 0);
  }
  return NULL;
}

int main(void) {
  assert(pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE) == 0);
  static int flags[THREADS] = {0, 1, 0};
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, worker, &flags[i]);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  assert(counter == THREADS * ITERS);
  pthread_spin_destroy(&spin);
  return 0;
}

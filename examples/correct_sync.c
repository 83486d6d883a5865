/* correct_sync.c - a correct program using semaphores, a barrier, spinlocks, a detached thread
 * and C11 threads.
 *
 * What it does: WORKERS workers run ROUNDS rounds. In each round a worker enters a section
 *   that a counting semaphore (`gate`, 2 permits) limits to 2 threads at once, adds its id to
 *   the round's sum under a spinlock, then meets the others at a pthread barrier and checks
 *   the complete sum of that round. A detached thread computes a value and reports completion
 *   through a semaphore. A C11 thread (thrd_create) answers one request through a mailbox
 *   guarded by mtx_t/cnd_t, waiting in predicate loops.
 * Correct: must never fail, under any interleaving, with or without spurious wakeups.
 * Root cause: none. Failure: none expected (any failure is a bug in the tool).
 * Reachable with: - (expected outcome: pass with sync points and with access points)
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <threads.h>

#define WORKERS 3
#define ROUNDS 2
#define GATE 2

static pthread_barrier_t barrier;
static pthread_spinlock_t spin;
static int round_sum[ROUNDS], inside, serial; /* guarded by spin */
static sem_t gate, done;
static int detached_result; /* written before sem_post(&done), read after sem_wait(&done) */
static mtx_t mbox_lock;
static cnd_t mbox_changed;
static int request, reply; /* guarded by mbox_lock; 0 = empty */

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int r = 0; r < ROUNDS; r++) {
    sem_wait(&gate);
    pthread_spin_lock(&spin);
    inside++;
    assert(inside <= GATE);
    round_sum[r] += id;
    pthread_spin_unlock(&spin);
    pthread_spin_lock(&spin);
    inside--;
    pthread_spin_unlock(&spin);
    sem_post(&gate);
    int rc = pthread_barrier_wait(&barrier); /* all of round r's additions happen before */
    assert(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
    pthread_spin_lock(&spin);
    assert(round_sum[r] == WORKERS * (WORKERS + 1) / 2);
    serial += rc == PTHREAD_BARRIER_SERIAL_THREAD;
    pthread_spin_unlock(&spin);
  }
  return NULL;
}

static void *detached(void *arg) {
  (void)arg;
  detached_result = 6 * 7;
  sem_post(&done);
  return NULL;
}

static int echo(void *arg) { /* C11 thread: doubles one request */
  (void)arg;
  mtx_lock(&mbox_lock);
  while (request == 0) cnd_wait(&mbox_changed, &mbox_lock);
  reply = 2 * request;
  cnd_signal(&mbox_changed);
  mtx_unlock(&mbox_lock);
  return 7;
}

int main(void) {
  pthread_barrier_init(&barrier, NULL, WORKERS);
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  sem_init(&gate, 0, GATE);
  sem_init(&done, 0, 0);
  mtx_init(&mbox_lock, mtx_plain);
  cnd_init(&mbox_changed);
  pthread_t d, w[WORKERS];
  pthread_create(&d, NULL, detached, NULL);
  pthread_detach(d);
  for (int i = 0; i < WORKERS; i++) pthread_create(&w[i], NULL, worker, (void *)(intptr_t)(i + 1));
  thrd_t e;
  int e_result = 0;
  int rc = thrd_create(&e, echo, NULL);
  assert(rc == thrd_success);
  mtx_lock(&mbox_lock);
  request = 21;
  cnd_signal(&mbox_changed);
  while (reply == 0) cnd_wait(&mbox_changed, &mbox_lock);
  mtx_unlock(&mbox_lock);
  assert(reply == 42);
  thrd_join(e, &e_result);
  assert(e_result == 7);
  for (int i = 0; i < WORKERS; i++) pthread_join(w[i], NULL);
  assert(serial == ROUNDS); /* exactly one serial thread per round */
  sem_wait(&done);
  assert(detached_result == 42);
  return 0;
}

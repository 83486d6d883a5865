/* correct_locks.c - a correct program using mutexes, condition variables, an rwlock and once.
 *
 * What it does: PRODUCERS producers put ITEMS values each into a bounded buffer of CAP slots
 *   (normal mutex + two condition variables, waits in predicate loops); one consumer takes
 *   them all and adds them up under a recursive mutex (locked twice, nested). Producers count
 *   their output in a pair of fields under an rwlock (writers) that the consumer reads (reader).
 *   The values come from a table that pthread_once fills in. An errorcheck mutex counts the
 *   producers that finished; main then checks its error codes (EDEADLK, EPERM).
 * Correct: must never fail, under any interleaving, with or without spurious wakeups.
 * Root cause: none. Failure: none expected (any failure is a bug in the tool).
 * Reachable with: - (expected outcome: pass with sync points and with access points)
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#define CAP 2
#define PRODUCERS 2
#define ITEMS 2 /* per producer: the values table[0], table[1] */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int table[ITEMS], inits; /* written once, by init_table */
static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static int buf[CAP], head, count; /* guarded by buf_lock */
static pthread_rwlock_t stats = PTHREAD_RWLOCK_INITIALIZER;
static int produced, produced_too; /* guarded by stats; always equal */
static pthread_mutex_t sum_lock;   /* recursive */
static int sum;
static pthread_mutex_t done_lock;  /* errorcheck */
static int finished;

static void init_table(void) { inits++, table[0] = 10, table[1] = 20; }

static void *producer(void *arg) {
  (void)arg;
  pthread_once(&once, init_table);
  for (int i = 0; i < ITEMS; i++) {
    pthread_mutex_lock(&buf_lock);
    while (count == CAP) pthread_cond_wait(&not_full, &buf_lock);
    buf[(head + count++) % CAP] = table[i];
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&buf_lock);
    pthread_rwlock_wrlock(&stats);
    produced++, produced_too++;
    pthread_rwlock_unlock(&stats);
  }
  pthread_mutex_lock(&done_lock);
  finished++;
  pthread_mutex_unlock(&done_lock);
  return NULL;
}

static void add(int v, int depth) { /* takes sum_lock depth + 1 times */
  pthread_mutex_lock(&sum_lock);
  if (depth > 0) add(v, depth - 1); else sum += v;
  pthread_mutex_unlock(&sum_lock);
}

static void *consumer(void *arg) {
  (void)arg;
  pthread_once(&once, init_table);
  for (int n = 0; n < PRODUCERS * ITEMS; n++) {
    pthread_mutex_lock(&buf_lock);
    while (count == 0) pthread_cond_wait(&not_empty, &buf_lock);
    int v = buf[head];
    head = (head + 1) % CAP, count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&buf_lock);
    assert(v == table[0] || v == table[ITEMS - 1]);
    add(v, 1);
    pthread_rwlock_rdlock(&stats);
    assert(produced == produced_too && produced <= PRODUCERS * ITEMS);
    pthread_rwlock_unlock(&stats);
  }
  return NULL;
}

int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&sum_lock, &attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&done_lock, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t t[PRODUCERS + 1];
  for (int i = 0; i < PRODUCERS; i++) pthread_create(&t[i], NULL, producer, NULL);
  pthread_create(&t[PRODUCERS], NULL, consumer, NULL);
  for (int i = 0; i <= PRODUCERS; i++) pthread_join(t[i], NULL);
  assert(inits == 1 && finished == PRODUCERS && count == 0);
  assert(produced == PRODUCERS * ITEMS && sum == PRODUCERS * (10 + 20));
  /* errorcheck: relocking and unlocking an unlocked mutex are reported, not undefined */
  int rc1 = pthread_mutex_lock(&done_lock), rc2 = pthread_mutex_lock(&done_lock);
  int rc3 = pthread_mutex_unlock(&done_lock), rc4 = pthread_mutex_unlock(&done_lock);
  assert(rc1 == 0 && rc2 == EDEADLK && rc3 == 0 && rc4 == EPERM);
  return 0;
}

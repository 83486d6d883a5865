/* pthread_rwlock: readers share (several may hold it together), a writer excludes everyone.
 * tryrdlock/trywrlock give EBUSY when they would have to wait. Notes "shared" when two readers
 * held it at once. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#include "note.h"

#define READERS 3
#define WRITERS 2

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int readers, writers, value; /* readers/writers guarded by lock; value by rw */

static void *reader(void *arg) {
  int use_try = *(int *)arg;
  if (use_try) {
    int rc;
    while ((rc = pthread_rwlock_tryrdlock(&rw)) != 0) {
      assert(rc == EBUSY);
      sched_yield();
    }
  } else {
    assert(pthread_rwlock_rdlock(&rw) == 0);
  }
  pthread_mutex_lock(&lock);
  readers++;
  assert(writers == 0 && "a reader next to a writer");
  if (readers >= 2) note("shared");
  pthread_mutex_unlock(&lock);
  int seen = value;
  sched_yield();
  assert(value == seen && "value changed under a read lock");
  pthread_mutex_lock(&lock);
  readers--;
  pthread_mutex_unlock(&lock);
  assert(pthread_rwlock_unlock(&rw) == 0);
  return NULL;
}

static void *writer(void *arg) {
  int use_try = *(int *)arg;
  if (use_try) {
    int rc;
    while ((rc = pthread_rwlock_trywrlock(&rw)) != 0) {
      assert(rc == EBUSY);
      sched_yield();
    }
  } else {
    assert(pthread_rwlock_wrlock(&rw) == 0);
  }
  pthread_mutex_lock(&lock);
  writers++;
  assert(writers == 1 && readers == 0 && "a writer did not hold the rwlock alone");
  pthread_mutex_unlock(&lock);
  int seen = value;
  sched_yield();
  value = seen + 1;
  pthread_mutex_lock(&lock);
  writers--;
  pthread_mutex_unlock(&lock);
  assert(pthread_rwlock_unlock(&rw) == 0);
  return NULL;
}

int main(int argc, char **argv) {
  note_init(argc, argv);
  static int flags[] = {0, 1, 0};
  pthread_t r[READERS], w[WRITERS];
  for (int i = 0; i < WRITERS; i++) pthread_create(&w[i], NULL, writer, &flags[i]);
  for (int i = 0; i < READERS; i++) pthread_create(&r[i], NULL, reader, &flags[i]);
  for (int i = 0; i < WRITERS; i++) pthread_join(w[i], NULL);
  for (int i = 0; i < READERS; i++) pthread_join(r[i], NULL);
  assert(value == WRITERS);
  return 0;
}

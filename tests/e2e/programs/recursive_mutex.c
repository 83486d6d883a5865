/* Recursive mutex: the owner locks it DEPTH times (with scheduling points in between) and
 * unlocks it DEPTH times; another thread that locks it (or trylocks it) must not get it before
 * the last unlock. trylock by the owner succeeds and nests. Notes "waited" when the other thread
 * found it held at least once (so the test knows the contended path was explored). */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#include "note.h"

#define DEPTH 3

static pthread_mutex_t rec;
static int depth; /* the owner's current nesting, written while it holds `rec` */

static void *owner(void *arg) {
  (void)arg;
  for (int i = 0; i < DEPTH; i++) {
    assert(pthread_mutex_lock(&rec) == 0);
    depth++;
    sched_yield();
  }
  assert(pthread_mutex_trylock(&rec) == 0); /* the owner may nest with trylock too */
  depth++;
  for (int i = 0; i < DEPTH + 1; i++) {
    depth--;
    sched_yield();
    assert(pthread_mutex_unlock(&rec) == 0);
  }
  return NULL;
}

static void *other(void *arg) {
  (void)arg;
  int rc = pthread_mutex_trylock(&rec);
  assert(rc == 0 || rc == EBUSY);
  if (rc == EBUSY) {
    note("waited");
    assert(pthread_mutex_lock(&rec) == 0);
  }
  assert(depth == 0 && "got the recursive mutex before its owner's last unlock");
  sched_yield();
  assert(depth == 0);
  assert(pthread_mutex_unlock(&rec) == 0);
  return NULL;
}

int main(int argc, char **argv) {
  note_init(argc, argv);
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&rec, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t a, b;
  pthread_create(&a, NULL, owner, NULL);
  pthread_create(&b, NULL, other, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  /* Fully released: lock and unlock once more. */
  assert(pthread_mutex_trylock(&rec) == 0);
  assert(pthread_mutex_unlock(&rec) == 0);
  return 0;
}

/* A counting semaphore with PERMITS permits: never more than PERMITS holders at once; sem_trywait
 * fails with EAGAIN only when no permit is left. Notes "full" when PERMITS holders were inside
 * together (a semaphore is not a mutex). */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stddef.h>

#include "note.h"

#define PERMITS 2
#define THREADS 4

static sem_t sem;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int inside; /* guarded by lock */

static void enter(void) {
  pthread_mutex_lock(&lock);
  inside++;
  assert(inside <= PERMITS && "more holders than permits");
  if (inside == PERMITS) note("full");
  pthread_mutex_unlock(&lock);
  sched_yield();
  pthread_mutex_lock(&lock);
  inside--;
  pthread_mutex_unlock(&lock);
}

static void *worker(void *arg) {
  int id = *(int *)arg;
  if (id % 2) {
    assert(sem_wait(&sem) == 0);
  } else {
    while (sem_trywait(&sem) != 0) {
      assert(errno == EAGAIN);
      sched_yield();
    }
  }
  enter();
  assert(sem_post(&sem) == 0);
  return NULL;
}

int main(int argc, char **argv) {
  note_init(argc, argv);
  assert(sem_init(&sem, 0, PERMITS) == 0);
  pthread_t t[THREADS];
  int ids[THREADS];
  for (int i = 0; i < THREADS; i++) {
    ids[i] = i;
    pthread_create(&t[i], NULL, worker, &ids[i]);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  int value = -1;
  assert(sem_getvalue(&sem, &value) == 0 && value == PERMITS);
  sem_destroy(&sem);
  return 0;
}

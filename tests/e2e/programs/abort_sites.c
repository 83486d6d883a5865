/* Two workers race to claim a flag; the winner calls abort() — from a different line in each
 * worker. Expected: failure kind signal (SIGABRT), located in this program at the abort() call of
 * the thread that won (not inside libc's raise/pthread_kill), and the two call sites are two
 * different failure groups. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int claimed;

static int claim(void) {
  pthread_mutex_lock(&lock);
  int won = !claimed;
  claimed = 1;
  pthread_mutex_unlock(&lock);
  return won;
}

static void *left(void *arg) {
  (void)arg;
  if (claim()) abort(); /* LEFT_ABORT */
  return NULL;
}

static void *right(void *arg) {
  (void)arg;
  if (claim()) abort(); /* RIGHT_ABORT */
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, left, NULL);
  pthread_create(&b, NULL, right, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

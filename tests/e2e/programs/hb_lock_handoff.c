/* Happens-before through a mutex handed from one thread to another (built instrumented for
 * traces). Both threads access `guarded` inside the critical section: whichever order the
 * schedule picks, the two accesses are ordered. Both touch `unguarded` after unlocking: those
 * accesses are concurrent. Prints the addresses (see hb_create_join.c). */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int guarded, unguarded, seen_guarded, seen_unguarded;

static void *writer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock); /* LOCK_LINE */
  guarded = 1;
  pthread_mutex_unlock(&lock); /* UNLOCK_LINE */
  unguarded = 1;
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  seen_guarded = guarded;
  pthread_mutex_unlock(&lock);
  seen_unguarded = unguarded;
  return NULL;
}

int main(void) {
  printf("guarded=%p\nunguarded=%p\n", (void *)&guarded, (void *)&unguarded);
  fflush(stdout);
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}

/* force_signal_in_lock.c - a cache loader started in the background; main waits until the
 * cache is loaded before it reads it. The loader fills the table and signals under the mutex,
 * but main tests the flag before it takes the mutex and waits without testing it again: when
 * the loader's whole critical section falls between main's test and its wait, the signal is
 * lost and main waits forever (a deadlock, since main never joins). The cause is an order of
 * sync operations, the signal before the wait. At the signal the loader holds the mutex main
 * needs to start waiting, so the opposite order cannot happen from that moment; it can from the
 * loader's lock call. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_ready = PTHREAD_COND_INITIALIZER;
static int loaded;
static int table[8];

static void *load_cache(void *arg) {
  (void)arg;
  pthread_mutex_lock(&cache_lock);
  for (int i = 0; i < 8; i++) table[i] = i * i;
  loaded = 1;
  pthread_cond_signal(&cache_ready);
  pthread_mutex_unlock(&cache_lock);
  return NULL;
}

int main(void) {
  pthread_t loader;
  pthread_create(&loader, NULL, load_cache, NULL);
  if (!loaded) {
    pthread_mutex_lock(&cache_lock);
    pthread_cond_wait(&cache_ready, &cache_lock);
    pthread_mutex_unlock(&cache_lock);
  }
  printf("table[7] = %d\n", table[7]);
  pthread_join(loader, NULL);
  return 0;
}

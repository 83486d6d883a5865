// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause table R1@31 W2@31 W1@31
/* rwlock_lru.c - a read-mostly lookup table with per-entry hit counts for eviction.
 *
 * Lookups hold the read lock, so several run at once, but they also bump the entry's hit
 * count: a write under a read lock. Two concurrent lookups of one key can lose a hit, and the
 * table's accounting (hits of all entries == lookups served) no longer adds up.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct entry {
  const char *key;
  int value;
  int hits;
};

static struct entry table[3] = {{"alpha", 1, 0}, {"beta", 2, 0}, {"gamma", 3, 0}};
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t served_lock = PTHREAD_MUTEX_INITIALIZER;
static int served; /* guarded by served_lock */

static int lookup(const char *key) {
  int value = -1;
  pthread_rwlock_rdlock(&table_lock);
  for (int i = 0; i < 3; i++) {
    struct entry *e = &table[i];
    if (strcmp(e->key, key) == 0) {
      e->hits++;
      value = e->value;
      break;
    }
  }
  pthread_rwlock_unlock(&table_lock);
  pthread_mutex_lock(&served_lock);
  served++;
  pthread_mutex_unlock(&served_lock);
  return value;
}

static void *client(void *arg) {
  (void)arg;
  lookup("beta");
  lookup("beta");
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, client, NULL);
  pthread_create(&b, NULL, client, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_rwlock_wrlock(&table_lock);
  int hits = table[0].hits + table[1].hits + table[2].hits;
  pthread_rwlock_unlock(&table_lock);
  printf("%d lookups, %d hits\n", served, hits);
  assert(hits == served && "hit counts lost");
  return 0;
}

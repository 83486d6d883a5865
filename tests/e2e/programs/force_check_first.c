/* force_check_first.c - a table of mounted volumes; two threads mount the same volume at start-up.
 *
 * Bug: check-then-act. mount() looks the name up under the read lock, and appends it under the
 *   write lock without looking again, so both threads can append it.
 * Root cause: one thread's lookup `for (int i = 0; i < table.count; i++)` reads the count before
 *   the other's `table.count++`; it then takes its slot at `int slot = table.count;`, reading
 *   the count the other wrote: R1 (lookup) - W2 (count++) - R1 (append).
 * Failure: assertion in main (`table.count == 1`).
 * Forcing trap: the pair W2 (count++) → R1 (append) cannot happen on its own. Held only before its
 *   append, the first thread looks the name up after the other's count++, finds it and returns;
 *   the pair needs the lookup before the write, as the failing run had it.
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

#define MAX_VOLUMES 8

struct volume_table {
  pthread_rwlock_t lock;
  const char *names[MAX_VOLUMES];
  int count;
};

static struct volume_table table = {PTHREAD_RWLOCK_INITIALIZER, {0}, 0};

static int find_volume(const char *name) {
  for (int i = 0; i < table.count; i++)
    if (strcmp(table.names[i], name) == 0) return i;
  return -1;
}

static int mount(const char *name) {
  pthread_rwlock_rdlock(&table.lock);
  int found = find_volume(name);
  pthread_rwlock_unlock(&table.lock);
  if (found >= 0) return found;
  pthread_rwlock_wrlock(&table.lock);
  int slot = table.count;
  table.names[table.count] = name;
  table.count++;
  pthread_rwlock_unlock(&table.lock);
  return slot;
}

static void *mount_data(void *arg) {
  (void)arg;
  mount("/data");
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, mount_data, NULL);
  pthread_create(&b, NULL, mount_data, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(table.count == 1 && "a volume was mounted twice");
  return 0;
}

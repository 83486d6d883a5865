/* force_lock_evict.c - a session table that records evictions in an audit trail, and an audit
 * report that includes the number of open sessions.
 *
 * open_session() holds the table lock and, when the table is full, evicts the oldest session and
 * records the eviction under the audit lock. audit_report() holds the audit lock while it asks
 * the table for its size under the table lock: the opposite order. Only the third open evicts,
 * so the deadlock needs the opener's third lock of the table while the reporter holds the audit
 * lock (tests/e2e/sync_order_test.cc: the table's half is confirmed in the failing run's context).
 */
#include <pthread.h>
#include <stdio.h>

#define CAPACITY 2

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;
static int sessions[CAPACITY];
static int open_count;
static long evictions;
static int last_evicted;

static void record_eviction(int id) {
  pthread_mutex_lock(&audit_lock);
  evictions++;
  last_evicted = id;
  pthread_mutex_unlock(&audit_lock);
}

static void open_session(int id) {
  pthread_mutex_lock(&table_lock);
  if (open_count == CAPACITY) {
    record_eviction(sessions[0]);
    sessions[0] = sessions[1];
    open_count--;
  }
  sessions[open_count++] = id;
  pthread_mutex_unlock(&table_lock);
}

static int table_size(void) {
  pthread_mutex_lock(&table_lock);
  const int n = open_count;
  pthread_mutex_unlock(&table_lock);
  return n;
}

static void *opener(void *arg) {
  (void)arg;
  for (int id = 1; id <= 3; id++) open_session(id);
  return NULL;
}

static void *audit_report(void *arg) {
  (void)arg;
  pthread_mutex_lock(&audit_lock);
  printf("%ld evictions (last %d), %d sessions open\n", evictions, last_evicted, table_size());
  pthread_mutex_unlock(&audit_lock);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, opener, NULL);
  pthread_create(&b, NULL, audit_report, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

/* bandwidth_order.c - a worker uses the session's bandwidth object before it exists.
 *
 * What it does: a session thread initialises the session `h` and then creates its bandwidth
 *   object, publishing it in `h->bandwidth`; a worker thread started at the same time reads
 *   `h->bandwidth` and dereferences it. (The order violation of Transmission 1.42 that the Locon
 *   paper opens with.)
 * Bug: order violation. The code assumes the session thread's write of h->bandwidth (line 36)
 *   happens before the worker's read (line 42), but nothing enforces that order.
 * Root cause: lines 36 and 42 (no synchronization between initialising h->bandwidth and using
 *   it); the failing read is at line 42.
 * Failure: SIGSEGV (NULL pointer dereference at bandwidth_order.c:43).
 * Failing interleaving (sync points, 1 preemption):
 *   main: creates both threads | switch to the worker before the session thread has run |
 *   worker: reads h->bandwidth == NULL, dereferences it -> SIGSEGV. The write never happens.
 * Reachable with: sync points.
 * Localization: with --access-pairs, Locon's procedure II finds that every passing run has the
 *   pair W h->bandwidth (line 36) → R h->bandwidth (line 42), which the crashed run lacks, and
 *   reports the reversed pair R@42 → W@36 first.
 * Fix: create the bandwidth object before starting the worker (or wait for it under a lock).
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct bandwidth { int pieces; int rate; };
struct session { int peers; struct bandwidth *bandwidth; };

static struct session g_session; /* h; the bandwidth object is NULL until created */

static void *session_init(void *arg) {
  struct session *h = arg;
  h->peers = 4;
  struct bandwidth *b = calloc(1, sizeof *b);
  b->rate = 512;
  h->bandwidth = b;
  return NULL;
}

static void *allocate_bandwidth(void *arg) {
  struct session *h = arg;
  struct bandwidth *b = h->bandwidth; /* NULL if the session thread has not created it yet */
  return (void *)(intptr_t)b->rate;
}

int main(void) {
  pthread_t init, worker;
  void *rate;
  pthread_create(&init, NULL, session_init, &g_session);
  pthread_create(&worker, NULL, allocate_bandwidth, &g_session);
  pthread_join(worker, &rate);
  pthread_join(init, NULL);
  assert((intptr_t)rate == 512);
  free(g_session.bandwidth);
  return 0;
}

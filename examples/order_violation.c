/* order_violation.c - a worker uses a configuration that main publishes too late.
 *
 * What it does: main fills in a configuration, starts a worker thread, and only then publishes
 *   a pointer to the configuration in the global `g_config`. The worker returns
 *   `g_config->port`, which main checks after pthread_join.
 * Bug: order violation. The code assumes the publication (line 38) happens before the worker's
 *   use (line 28), but nothing enforces that order: the worker may run as soon as it is created.
 * Root cause: lines 37-38 (pthread_create before `g_config = &config`); the use is at line 28.
 * Failure: SIGSEGV (NULL pointer dereference at order_violation.c:28).
 * Failing interleaving (sync points, 1 preemption):
 *   main: pthread_create(worker) | switch at the thread-create point to the new thread |
 *   worker: thread start, reads g_config == NULL, dereferences it -> SIGSEGV.
 * Reachable with: sync points.
 * Fix: publish the configuration before pthread_create (or pass it as the thread argument).
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct config { int port; };

struct config *g_config; /* published by main; NULL until then */

static void *worker(void *arg) {
  (void)arg;
  /* g_config is still NULL if main has not published it yet. */
  return (void *)(intptr_t)g_config->port;
}

int main(void) {
  /* static: must outlive the worker. */
  static struct config config;
  pthread_t t;
  config.port = 8080;
  /* BUG: the worker is started before the configuration is published. */
  pthread_create(&t, NULL, worker, NULL);
  g_config = &config;
  void *port;
  pthread_join(t, &port);
  assert((intptr_t)port == 8080);
  return 0;
}

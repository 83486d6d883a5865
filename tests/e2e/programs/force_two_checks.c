/* force_two_checks.c - an order violation that fails at either of two assertions (forcing
 * classes, issue 10; docs/forcing.md "Refuted, but it fails another way").
 *
 * The boot thread announces the server's limits before it fills them in; the acceptor waits for
 * the announcement and checks each limit it reads. Reading the connection limit before its store
 * fails the first assertion; reading it after, but the queue limit before its store, fails the
 * second. Forced, either read-before-store order fails at its own assertion, which need not be
 * the one the reference failing run hit: an order that makes the program fail another way is not
 * refuted.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

struct server_limits {
  int max_connections;
  int max_queue;
};

static struct server_limits limits;
static int limits_published;

static void *boot(void *arg) {
  (void)arg;
  __atomic_store_n(&limits_published, 1, __ATOMIC_RELEASE);
  limits.max_connections = 64;
  limits.max_queue = 256;
  return NULL;
}

static void *acceptor(void *arg) {
  int *backlog = arg;
  while (!__atomic_load_n(&limits_published, __ATOMIC_ACQUIRE)) sched_yield();
  int connections = limits.max_connections;
  int queue = limits.max_queue;
  assert(connections > 0 && "connection limit not loaded");
  assert(queue > 0 && "queue limit not loaded");
  *backlog = queue / connections;
  return NULL;
}

int main(void) {
  int backlog = 0;
  pthread_t acceptor_thread, boot_thread;
  pthread_create(&acceptor_thread, NULL, acceptor, &backlog);
  pthread_create(&boot_thread, NULL, boot, NULL);
  pthread_join(acceptor_thread, NULL);
  pthread_join(boot_thread, NULL);
  printf("backlog %d per connection\n", backlog);
  return 0;
}

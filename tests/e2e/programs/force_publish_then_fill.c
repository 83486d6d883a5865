/* force_publish_then_fill.c - connection limits loaded lazily, double-checked.
 *
 * current_limits() takes the lock only while the limits are missing, but it publishes the new
 * table before it parses the values into it: a caller on the fast path can read max_conns while
 * it is still the placeholder 0 and refuse a connection it should accept.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct limits {
  int max_conns;
  int max_rate;
};

static const char *const kConfig = "max_conns=64 max_rate=1000";
static struct limits *g_limits;
static pthread_mutex_t g_limits_lock = PTHREAD_MUTEX_INITIALIZER;

static int parse_limit(const char *key) {
  const char *at = strstr(kConfig, key);
  return at ? atoi(at + strlen(key) + 1) : 0;
}

static struct limits *current_limits(void) {
  if (g_limits == NULL) {
    pthread_mutex_lock(&g_limits_lock);
    if (g_limits == NULL) {
      struct limits *l = malloc(sizeof *l);
      l->max_conns = 0;
      l->max_rate = 0;
      g_limits = l;
      l->max_conns = parse_limit("max_conns");
      l->max_rate = parse_limit("max_rate");
    }
    pthread_mutex_unlock(&g_limits_lock);
  }
  return g_limits;
}

static void *accept_connection(void *arg) {
  int *accepted = arg;
  const struct limits *l = current_limits();
  *accepted = l->max_conns > 0;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  int accepted_a = 0, accepted_b = 0;
  pthread_create(&a, NULL, accept_connection, &accepted_a);
  pthread_create(&b, NULL, accept_connection, &accepted_b);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("accepted %d %d\n", accepted_a, accepted_b);
  free(g_limits);
  return accepted_a && accepted_b ? 0 : 1;
}

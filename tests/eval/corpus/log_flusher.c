// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_sink R1@23 W2@35
/* log_flusher.c - a logging library starts its background flusher during log_init().
 *
 * log_init() starts the flusher thread first and only then publishes the sink it writes to.
 * The flusher dereferences g_sink as soon as it runs: if it runs before the publication it
 * crashes on a NULL pointer (and the publication never happens in that run).
 */
#include <pthread.h>
#include <stdio.h>

struct sink {
  FILE *out;
  int pending;
};

static struct sink *g_sink; /* published by log_init() */
static pthread_t g_flusher;
static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;

static void *flusher(void *arg) {
  (void)arg;
  fputs("flusher: started\n", g_sink->out);
  pthread_mutex_lock(&g_log_lock);
  fflush(g_sink->out);
  g_sink->pending = 0;
  pthread_mutex_unlock(&g_log_lock);
  return NULL;
}

static void log_init(void) {
  static struct sink sink;
  sink.out = stdout;
  pthread_create(&g_flusher, NULL, flusher, NULL);
  g_sink = &sink;
}

static void log_line(const char *text) {
  pthread_mutex_lock(&g_log_lock);
  fprintf(g_sink->out, "%s\n", text);
  g_sink->pending++;
  pthread_mutex_unlock(&g_log_lock);
}

int main(void) {
  log_init();
  log_line("service starting");
  pthread_join(g_flusher, NULL);
  log_line("service stopped");
  return 0;
}

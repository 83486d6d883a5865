// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_log_mu,g_flush_requested,g_flush_cv lock1@22:g_log_mu R1@23:g_flush_requested W2@43:g_flush_requested signal2@44:g_flush_cv wait1@24:g_flush_cv
// An in-memory logger: main appends lines to a buffer, and a flusher thread waits until a flush
// is requested, then copies the buffer out to the "disk" area.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CAP 128

char g_buffer[CAP];
int g_used;
char g_disk[CAP];
int g_disk_used;
int g_flush_requested;
pthread_mutex_t g_log_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t g_flush_cv = PTHREAD_COND_INITIALIZER;

static void *flusher(void *arg) {
  (void)arg;
  pthread_mutex_lock(&g_log_mu);
  while (!g_flush_requested)
    pthread_cond_wait(&g_flush_cv, &g_log_mu);
  memcpy(g_disk, g_buffer, (size_t)g_used);
  g_disk_used = g_used;
  pthread_mutex_unlock(&g_log_mu);
  return NULL;
}

static void log_line(const char *line) {
  size_t n = strlen(line);
  pthread_mutex_lock(&g_log_mu);
  if (g_used + (int)n <= CAP) {
    memcpy(g_buffer + g_used, line, n);
    g_used += (int)n;
  }
  pthread_mutex_unlock(&g_log_mu);
}

// A flag store is a single write, so the request does not bother with the log lock.
static void request_flush(void) {
  g_flush_requested = 1;
  pthread_cond_signal(&g_flush_cv);
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, flusher, NULL);
  log_line("service starting\n");
  log_line("listening on :8080\n");
  request_flush();
  pthread_join(t, NULL);
  assert(g_disk_used == g_used);
  assert(memcmp(g_disk, g_buffer, (size_t)g_used) == 0);
  printf("flushed %d bytes\n", g_disk_used);
  return 0;
}

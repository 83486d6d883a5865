/* force_writer_in_lock.c - a metrics exporter and the thread that loads its settings.
 *
 * Bug: order violation. The exporter formats its report header and then reads the export
 *   interval under the settings lock; the loader parses the settings and fills them in, under
 *   the same lock. Read first, the interval is still 0 and the exporter's check fails.
 * Root cause: the exporter's `int interval = settings.interval_ms;` before the loader's
 *   `settings.interval_ms = parsed.interval_ms;`: R1 - W2.
 * Failure: assertion in the exporter.
 * Forcing trap: the write sits inside the lock the reader needs. Held at the write, the loader
 *   owns the lock the exporter then blocks on, so it cannot stay held (it would starve the
 *   exporter) and writes first; it has to be held at its lock call instead.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct settings {
  int interval_ms;
  int batch;
};

static pthread_mutex_t settings_lock = PTHREAD_MUTEX_INITIALIZER;
static struct settings settings;
static char header[128];

static struct settings parse(const char *text) {
  struct settings s = {1000, 16};
  if (sscanf(text, "interval_ms=%d batch=%d", &s.interval_ms, &s.batch) != 2) s.batch = 16;
  return s;
}

static void *loader(void *arg) {
  struct settings parsed = parse((const char *)arg);
  pthread_mutex_lock(&settings_lock);
  settings.batch = parsed.batch;
  settings.interval_ms = parsed.interval_ms;
  pthread_mutex_unlock(&settings_lock);
  return NULL;
}

static void *exporter(void *arg) {
  const char *name = arg;
  int n = 0;
  for (const char *p = "metric,host="; *p && n < 100; ++p) header[n++] = *p;
  for (const char *p = name; *p && n < 127; ++p) header[n++] = *p;
  header[n] = '\0';
  pthread_mutex_lock(&settings_lock);
  int interval = settings.interval_ms;
  pthread_mutex_unlock(&settings_lock);
  assert(interval > 0 && "exporter started before its settings were loaded");
  printf("%s: exporting every %d ms\n", header, interval);
  return NULL;
}

int main(void) {
  pthread_t load, export;
  pthread_create(&load, NULL, loader, "interval_ms=250 batch=64");
  pthread_create(&export, NULL, exporter, "frontend-7.example.net");
  pthread_join(load, NULL);
  pthread_join(export, NULL);
  return 0;
}

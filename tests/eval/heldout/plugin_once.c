// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_codecs_ready R1@29 R2@29 W1@31
/* plugin_once.c - codecs are registered lazily, the first time any thread needs one.
 *
 * The "already initialized" flag is a C11 atomic, so the author believed the lazy init was
 * thread-safe. The test and the set are two separate atomic operations: two decoder threads
 * can both see the flag clear and both run the registration, which registers every codec twice.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define MAX_CODECS 8

static const char *g_codecs[MAX_CODECS];
static int g_ncodecs;
static pthread_mutex_t g_codecs_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int g_codecs_ready;

static void register_codec(const char *name) {
  pthread_mutex_lock(&g_codecs_lock);
  g_codecs[g_ncodecs++] = name;
  pthread_mutex_unlock(&g_codecs_lock);
}

static void ensure_codecs(void) {
  if (!atomic_load_explicit(&g_codecs_ready, memory_order_acquire)) {
    register_codec("pcm");
    atomic_store_explicit(&g_codecs_ready, 1, memory_order_release);
  }
}

static int find_codec(const char *name) {
  ensure_codecs();
  int found = 0;
  pthread_mutex_lock(&g_codecs_lock);
  for (int i = 0; i < g_ncodecs; i++)
    if (strcmp(g_codecs[i], name) == 0)
      found++;
  pthread_mutex_unlock(&g_codecs_lock);
  return found;
}

static void *decoder(void *arg) {
  (void)arg;
  int matches = find_codec("pcm");
  assert(matches == 1);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, decoder, NULL);
  pthread_create(&b, NULL, decoder, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d codecs\n", g_ncodecs);
  return 0;
}

// A test whose output and assertion message are markup, for the HTML report's escaping test
// (check_html.py): if any of it reached the page as markup, it would set document.title and an
// attribute on <html> to "pwned". Two workers take a lock (so the run has an interleaving to
// draw), then main's assertion fails on every seed.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int turns;

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  ++turns;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  printf("</script><script>document.title='pwned';document.documentElement.setAttribute('data-pwned','script')</script>\n");
  printf("<img src=x onerror=\"document.title='pwned';document.documentElement.setAttribute('data-pwned','img')\">\n");
  printf("line separators: \xe2\x80\xa8 and \xe2\x80\xa9, an ampersand &amp; and a quote \"\n");
  fflush(stdout);
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, worker, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
  assert(turns == 3 && "</script><script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">");
  return 0;
}

/* force_cut_short_half.c - a two-variable bug whose every failing run ends before one half's
 * write (forcing classes, issue 10).
 *
 * A thumbnail service keeps its size limit as a width and a height; every limit the config allows
 * keeps width * height within the pixel budget. An admin thread installs a new limit in two
 * critical sections (the width, then the height), and a render thread reads both under the read
 * lock for each of its jobs. A job that reads the new width with the old height is over budget:
 * the render thread's check fails three lines after its read of the height, long before the
 * admin's height store. So in every failing run the height's read-then-store order is "cut
 * short": the read happened and the store never did.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define PIXEL_BUDGET 4096
#define JOBS 3

static pthread_rwlock_t limit_lock = PTHREAD_RWLOCK_INITIALIZER;
static int max_width = 32;
static int max_height = 128;

static void *admin(void *arg) {
  (void)arg;
  /* Wide banners instead of tall strips: 128 x 32 instead of 32 x 128. */
  pthread_rwlock_wrlock(&limit_lock);
  max_width = 128;
  pthread_rwlock_unlock(&limit_lock);
  pthread_rwlock_wrlock(&limit_lock);
  max_height = 32;
  pthread_rwlock_unlock(&limit_lock);
  return NULL;
}

static void *render(void *arg) {
  long *largest = arg;
  for (int job = 0; job < JOBS; ++job) {
    pthread_rwlock_rdlock(&limit_lock);
    int width = max_width;
    int height = max_height;
    pthread_rwlock_unlock(&limit_lock);
    long pixels = (long)width * height;
    assert(pixels <= PIXEL_BUDGET && "thumbnail limit over the pixel budget");
    if (pixels > *largest) *largest = pixels;
  }
  return NULL;
}

int main(void) {
  long largest = 0;
  pthread_t renderer, admin_thread;
  pthread_create(&renderer, NULL, render, &largest);
  pthread_create(&admin_thread, NULL, admin, NULL);
  pthread_join(renderer, NULL);
  pthread_join(admin_thread, NULL);
  printf("limit %d x %d, largest job %ld pixels\n", max_width, max_height, largest);
  return 0;
}

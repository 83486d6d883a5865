// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_window W1@24 R2@34 R2@35 W1@28
/* range_window.c - a sliding window [low, high) of sequence numbers that a sender advances
 * and a monitor inspects.
 *
 * Bug: the sender moves the two bounds in two separate critical sections (it "does not want to
 * hold the lock while it computes the new upper bound"). The monitor takes the lock and expects
 * the window to have its fixed width; between the two sections it sees low moved and high not.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define WIDTH 8

static pthread_mutex_t g_window_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  long low;
  long high;
} g_window = {0, WIDTH};

static void advance(long acked) {
  pthread_mutex_lock(&g_window_lock);
  g_window.low = acked;
  pthread_mutex_unlock(&g_window_lock);
  long next_high = acked + WIDTH;
  pthread_mutex_lock(&g_window_lock);
  g_window.high = next_high;
  pthread_mutex_unlock(&g_window_lock);
}

static long window_width(void) {
  pthread_mutex_lock(&g_window_lock);
  long low = g_window.low;
  long high = g_window.high;
  pthread_mutex_unlock(&g_window_lock);
  return high - low;
}

static void *sender(void *arg) {
  (void)arg;
  for (long ack = 1; ack <= 2; ack++)
    advance(ack * 3);
  return NULL;
}

static void *monitor(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    long width = window_width();
    assert(width == WIDTH);
  }
  return NULL;
}

int main(void) {
  pthread_t s, m;
  pthread_create(&s, NULL, sender, NULL);
  pthread_create(&m, NULL, monitor, NULL);
  pthread_join(s, NULL);
  pthread_join(m, NULL);
  printf("window [%ld, %ld)\n", g_window.low, g_window.high);
  return 0;
}

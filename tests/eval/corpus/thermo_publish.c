// ctrlsched-truth: class=order_violation fails=exit
// ctrlsched-truth: cause g_latest W1@24 R2@36
// ctrlsched-truth: cause g_latest R1@42 W2@25
/* thermo_publish.c - a sensor thread publishes readings; a display thread shows the first one.
 *
 * publish() stamps the reading before it stores the value, and the display, which polls a
 * few times for the first reading, takes a non-zero stamp to mean "a reading is there". The display can read the placeholder value (-273) and
 * reject the implausible temperature with exit status 1.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

struct reading {
  volatile long stamp; /* volatile: the display polls it */
  int celsius;
};

static struct reading g_latest = {0, -273};
static long g_clock;

static void publish(int celsius) {
  g_latest.stamp = ++g_clock;
  g_latest.celsius = celsius;
}

static void *sensor(void *arg) {
  (void)arg;
  publish(21);
  return NULL;
}

static void *display(void *arg) {
  (void)arg;
  for (int tries = 0; tries < 20 && g_latest.stamp == 0; tries++)
    sched_yield();
  if (g_latest.stamp == 0) {
    printf("no reading yet\n");
    return NULL;
  }
  int celsius = g_latest.celsius;
  if (celsius < -50) {
    fprintf(stderr, "display: implausible temperature %d\n", celsius);
    exit(1);
  }
  printf("%d degrees\n", celsius);
  return NULL;
}

int main(void) {
  pthread_t s, d;
  pthread_create(&d, NULL, display, NULL);
  pthread_create(&s, NULL, sensor, NULL);
  pthread_join(s, NULL);
  pthread_join(d, NULL);
  return 0;
}

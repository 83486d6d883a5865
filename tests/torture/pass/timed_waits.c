/* A heartbeat monitor built on timed waits: a worker posts a semaphore a few times with sleeps
 * in between; the monitor waits for each beat with sem_timedwait and a condition variable with
 * pthread_cond_timedwait (absolute CLOCK_REALTIME deadlines) and counts beats and time-outs.
 * Under ctrlsched time-outs are scheduler decisions, so both paths occur; either way every beat
 * is eventually seen and the program ends. Must pass every seed. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { kBeats = 4 };

static sem_t beat;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int stopped;

static struct timespec in_ms(long ms) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_nsec += ms * 1000000L;
  t.tv_sec += t.tv_nsec / 1000000000L;
  t.tv_nsec %= 1000000000L;
  return t;
}

static void *heart(void *arg) {
  (void)arg;
  for (int i = 0; i < kBeats; i++) {
    usleep(1000);
    sem_post(&beat);
  }
  struct timespec pause = {0, 2000000};
  nanosleep(&pause, NULL);
  pthread_mutex_lock(&lock);
  stopped = 1;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  sem_init(&beat, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, heart, NULL);
  int beats = 0, timeouts = 0;
  while (beats < kBeats) {
    struct timespec deadline = in_ms(5);
    if (sem_timedwait(&beat, &deadline) == 0) {
      beats++;
    } else {
      assert(errno == ETIMEDOUT);
      timeouts++;
    }
  }
  pthread_mutex_lock(&lock);
  while (!stopped) {
    struct timespec deadline = in_ms(5);
    int rc = pthread_cond_timedwait(&changed, &lock, &deadline);
    assert(rc == 0 || rc == ETIMEDOUT);
    if (rc == ETIMEDOUT) timeouts++;
  }
  pthread_mutex_unlock(&lock);
  pthread_join(t, NULL);
  sem_destroy(&beat);
  printf("%d beats, %d time-outs\n", beats, timeouts);
  return 0;
}

/* force_flag_wakeup.c - a report writer started in the background; main waits for it before it
 * prints the totals. The writer raises `finished` and signals without taking the mutex, so both
 * can fall between main's test of the flag and its wait: main then sleeps forever (a lost
 * wakeup). The cause is an order of three objects: main reads the flag (false), the writer sets
 * it and signals, main waits. Its first half, main's read before the writer's store, is in every
 * failing run and forced alone it rarely fails: it must not come out `refuted`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int finished;
static long totals[4];
static long summary[4];

static void *write_report(void *arg) {
  (void)arg;
  for (int i = 0; i < 4; i++) totals[i] = (long)(i + 1) * 100;
  finished = 1;
  for (int i = 0; i < 4; i++) summary[i] = totals[i] / 10; /* the footer, after the flag */
  pthread_cond_signal(&done_cv);
  return NULL;
}

int main(void) {
  pthread_t writer;
  pthread_create(&writer, NULL, write_report, NULL);
  pthread_mutex_lock(&lock);
  while (!finished)
    pthread_cond_wait(&done_cv, &lock);
  pthread_mutex_unlock(&lock);
  printf("totals %ld %ld %ld %ld (%ld)\n", totals[0], totals[1], totals[2], totals[3], summary[3]);
  pthread_join(writer, NULL);
  return 0;
}

// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause data_ready,data_lock,data_cond R1@19:data_ready lock2@30:data_lock W2@32:data_ready signal2@33:data_cond lock1@20:data_lock wait1@21:data_cond
/* lost_wakeup.c - a consumer waits for a producer's data with a check outside the lock.
 *
 * The consumer tests data_ready without holding the lock and then waits. If the producer sets
 * the flag and signals between the test and the wait, the signal is lost and the consumer
 * waits forever (main waits for it in pthread_join: a deadlock).
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t data_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t data_cond = PTHREAD_COND_INITIALIZER;
static int data_ready;
static int data;

static void *consumer(void *arg) {
  (void)arg;
  if (!data_ready) {
    pthread_mutex_lock(&data_lock);
    pthread_cond_wait(&data_cond, &data_lock);
    pthread_mutex_unlock(&data_lock);
  }
  printf("consumed %d\n", data);
  return NULL;
}

static void *producer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&data_lock);
  data = 42;
  data_ready = 1;
  pthread_cond_signal(&data_cond);
  pthread_mutex_unlock(&data_lock);
  return NULL;
}

int main(void) {
  pthread_t c, p;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}

// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause results R1@33 W2@22
/* sem_results.c - two workers compute halves of a sum and post a semaphore when done.
 *
 * main waits on the semaphore once, as if it had one worker, and then combines both halves:
 * it can read the second half before that worker wrote it.
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>

static sem_t done;
static int results[2];

static void *worker(void *arg) {
  int part = (int)(intptr_t)arg;
  int sum = 0;
  for (int i = part * 50 + 1; i <= (part + 1) * 50; i++)
    sum += i;
  results[part] = sum;
  sem_post(&done);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  sem_init(&done, 0, 0);
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  sem_wait(&done);
  int total = results[0] + results[1];
  printf("1 + ... + 100 = %d\n", total);
  assert(total == 5050);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  sem_destroy(&done);
  return 0;
}

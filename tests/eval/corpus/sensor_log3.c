// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause count R1@20 W2@20 W1@20
/* sensor_log3.c - three sensor threads append readings to one unsynchronized log.
 *
 * `readings[count++] = value` reads count, stores the reading and stores count + 1; with three
 * threads appending, two can use the same slot and one reading is lost.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define SENSORS 3

static int readings[16];
static int count;

static void *sensor(void *arg) {
  int value = 20 + (int)(intptr_t)arg;
  readings[count++] = value;
  return NULL;
}

int main(void) {
  pthread_t t[SENSORS];
  for (intptr_t i = 0; i < SENSORS; i++)
    pthread_create(&t[i], NULL, sensor, (void *)i);
  for (int i = 0; i < SENSORS; i++)
    pthread_join(t[i], NULL);
  int sum = 0;
  for (int i = 0; i < count; i++)
    sum += readings[i];
  printf("%d readings, sum %d\n", count, sum);
  assert(count == SENSORS && sum == 20 + 21 + 22);
  return 0;
}

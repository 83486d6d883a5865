// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause down R1@38 W2@44 W1@44
/* maintenance3.c - three replicas take turns going down for maintenance; at least one of the
 * three must always stay up.
 *
 * A replica counts how many others are down (under their locks), and if fewer than two are,
 * marks itself down (under its own lock) and does its maintenance. The count and the mark are
 * separate critical sections. All three are down at once only if one replica checks while
 * another is between its check and its mark and the other two are inside their maintenance
 * when the last one starts: that needs three preemptions.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define REPLICAS 3

static pthread_mutex_t flag_lock[REPLICAS] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                              PTHREAD_MUTEX_INITIALIZER};
static int down[REPLICAS]; /* down[i] guarded by flag_lock[i] */
static pthread_mutex_t service_lock = PTHREAD_MUTEX_INITIALIZER;
static int serving = REPLICAS; /* guarded by service_lock */

static void set_serving(int delta) {
  pthread_mutex_lock(&service_lock);
  serving += delta;
  assert(serving >= 1 && "every replica is down");
  pthread_mutex_unlock(&service_lock);
}

static void *replica(void *arg) {
  int me = (int)(intptr_t)arg;
  int a = (me + 1) % REPLICAS, b = (me + 2) % REPLICAS;
  int first = a < b ? a : b, second = a < b ? b : a; /* lock order: by index */
  pthread_mutex_lock(&flag_lock[first]);
  pthread_mutex_lock(&flag_lock[second]);
  int others = down[a] + down[b];
  pthread_mutex_unlock(&flag_lock[second]);
  pthread_mutex_unlock(&flag_lock[first]);
  if (others >= 2)
    return NULL; /* not my turn */
  pthread_mutex_lock(&flag_lock[me]);
  down[me] = 1;
  pthread_mutex_unlock(&flag_lock[me]);
  set_serving(-1); /* maintenance starts ... */
  set_serving(+1); /* ... and ends */
  pthread_mutex_lock(&flag_lock[me]);
  down[me] = 0;
  pthread_mutex_unlock(&flag_lock[me]);
  return NULL;
}

int main(void) {
  pthread_t t[REPLICAS];
  for (intptr_t i = 0; i < REPLICAS; i++)
    pthread_create(&t[i], NULL, replica, (void *)i);
  for (int i = 0; i < REPLICAS; i++)
    pthread_join(t[i], NULL);
  printf("%d replicas serving\n", serving);
  return 0;
}

// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause next_item R1@23 W2@28 W1@28
/* work_claim.c - two workers claim items of a batch by index, in a loop.
 *
 * A worker reads the next index in one critical section and advances it in another, so both
 * workers can claim the same item in some iteration; that item is processed twice and another
 * one never. Whether it happens depends on which iterations of the two loops interleave.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define ITEMS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int next_item;          /* guarded by lock */
static int processed[ITEMS];   /* guarded by lock */

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    int item = next_item;
    pthread_mutex_unlock(&lock);
    if (item >= ITEMS)
      break;
    pthread_mutex_lock(&lock);
    next_item = item + 1;
    processed[item]++;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  for (int i = 0; i < ITEMS; i++) {
    if (processed[i] != 1)
      printf("item %d processed %d times\n", i, processed[i]);
    assert(processed[i] == 1);
  }
  return 0;
}

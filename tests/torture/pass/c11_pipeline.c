/* A two-stage pipeline with C11 <threads.h>: a bounded buffer guarded by mtx_t/cnd_t, a stage
 * configured once with call_once, and per-thread statistics in tss_t with a destructor that adds
 * them to a global tally. Must pass every seed. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

enum { kItems = 30, kCapacity = 4 };

static mtx_t lock;
static cnd_t not_full, not_empty;
static int buffer[kCapacity], head, count;
static once_flag configured = ONCE_FLAG_INIT;
static int scale;
static tss_t stats_key;
static int tally;

static void configure(void) { scale = 3; }

static void add_stats(void *stats) {
  mtx_lock(&lock);
  tally += *(int *)stats;
  mtx_unlock(&lock);
  free(stats);
}

static int *my_stats(void) {
  int *s = tss_get(stats_key);
  if (!s) {
    s = calloc(1, sizeof *s);
    tss_set(stats_key, s);
  }
  return s;
}

static int producer(void *arg) {
  (void)arg;
  call_once(&configured, configure);
  for (int i = 1; i <= kItems; i++) {
    mtx_lock(&lock);
    while (count == kCapacity) cnd_wait(&not_full, &lock);
    buffer[(head + count++) % kCapacity] = i * scale;
    cnd_signal(&not_empty);
    mtx_unlock(&lock);
    (*my_stats())++;
  }
  return 0;
}

static int consumer(void *arg) {
  long *sum = arg;
  call_once(&configured, configure);
  for (int i = 0; i < kItems; i++) {
    mtx_lock(&lock);
    while (count == 0) cnd_wait(&not_empty, &lock);
    *sum += buffer[head];
    head = (head + 1) % kCapacity;
    count--;
    cnd_signal(&not_full);
    mtx_unlock(&lock);
    (*my_stats())++;
  }
  return 0;
}

int main(void) {
  mtx_init(&lock, mtx_plain);
  cnd_init(&not_full);
  cnd_init(&not_empty);
  tss_create(&stats_key, add_stats);
  long sum = 0;
  thrd_t p, c;
  thrd_create(&p, producer, NULL);
  thrd_create(&c, consumer, &sum);
  thrd_join(p, NULL);
  thrd_join(c, NULL);
  assert(sum == 3L * kItems * (kItems + 1) / 2);
  assert(tally == 2 * kItems);
  tss_delete(stats_key);
  printf("sum %ld, %d items handled\n", sum, tally);
  return 0;
}

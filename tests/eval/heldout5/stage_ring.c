// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_parse,g_filter,g_pack,g_emit lock1@33:g_parse lock2@33:g_filter lock3@33:g_pack lock4@33:g_emit lock1@38:g_filter lock2@38:g_pack lock3@38:g_emit lock4@38:g_parse
// ctrlsched-truth: cause g_parse,g_filter,g_pack,g_emit lock1@33:g_filter lock2@33:g_pack lock3@33:g_emit lock4@33:g_parse lock1@38:g_pack lock2@38:g_emit lock3@38:g_parse lock4@38:g_filter
// ctrlsched-truth: cause g_parse,g_filter,g_pack,g_emit lock1@33:g_pack lock2@33:g_emit lock3@33:g_parse lock4@33:g_filter lock1@38:g_emit lock2@38:g_parse lock3@38:g_filter lock4@38:g_pack
// ctrlsched-truth: cause g_parse,g_filter,g_pack,g_emit lock1@33:g_emit lock2@33:g_parse lock3@33:g_filter lock4@33:g_pack lock1@38:g_parse lock2@38:g_filter lock3@38:g_pack lock4@38:g_emit
// A four-stage packet pipeline closed into a ring: each stage takes a packet from its own queue
// and hands it to the next stage's queue until the packet's hop budget is spent.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define QCAP 8
#define ROUNDS 3
#define STAGES 4

struct stage {
  pthread_mutex_t mu;  // guards this stage's queue and counters
  int queue[QCAP];
  int len;
  int handled;
  int retired;
  struct stage *next;
};

struct stage g_parse = {.mu = PTHREAD_MUTEX_INITIALIZER};
struct stage g_filter = {.mu = PTHREAD_MUTEX_INITIALIZER};
struct stage g_pack = {.mu = PTHREAD_MUTEX_INITIALIZER};
struct stage g_emit = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void *run_stage(void *arg) {
  struct stage *self = arg;
  for (int round = 0; round < ROUNDS; ++round) {
    pthread_mutex_lock(&self->mu);
    if (self->len > 0) {
      int hops = self->queue[--self->len];
      self->handled++;
      if (hops > 0) {
        pthread_mutex_lock(&self->next->mu);
        self->next->queue[self->next->len++] = hops - 1;
        pthread_mutex_unlock(&self->next->mu);
      } else {
        self->retired++;
      }
    }
    pthread_mutex_unlock(&self->mu);
  }
  return NULL;
}

int main(void) {
  struct stage *ring[STAGES] = {&g_parse, &g_filter, &g_pack, &g_emit};
  for (int i = 0; i < STAGES; ++i) {
    ring[i]->next = ring[(i + 1) % STAGES];
    ring[i]->queue[ring[i]->len++] = 2;  // one packet per stage, two hops to go
  }
  pthread_t threads[STAGES];
  for (int i = 0; i < STAGES; ++i) pthread_create(&threads[i], NULL, run_stage, ring[i]);
  for (int i = 0; i < STAGES; ++i) pthread_join(threads[i], NULL);

  int in_flight = 0, retired = 0, handled = 0;
  for (int i = 0; i < STAGES; ++i) {
    in_flight += ring[i]->len;
    retired += ring[i]->retired;
    handled += ring[i]->handled;
  }
  assert(in_flight + retired == STAGES);
  printf("%d packets retired, %d in flight, %d hops handled\n", retired, in_flight, handled);
  return 0;
}

/* gate_reset.c - a gate that is opened for a waiting worker and closed again too soon.
 *
 * A controller waits until the worker is parked at the gate, opens it (open = 1, broadcast) and
 * then closes it again for the next round (open = 0). The worker wakes from the broadcast but
 * must re-take the lock first; when the controller re-takes it before, the worker re-checks the
 * flag after it was cleared and waits again, with nobody left to open the gate: every thread
 * blocks (a lost wakeup by a re-set flag). Root cause: the broadcast (line 36) before the
 * worker's re-check, ordered against the close (line 42): on the condition variable the worker's
 * wait (line 28), the broadcast, and the worker's wait again (wait1-signal2-wait1).
 */
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

struct gate {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int open;
  int parked;
};

static struct gate g_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void *worker(void *arg) {
  struct gate *gate = arg;
  pthread_mutex_lock(&gate->lock);
  gate->parked = 1;
  while (!gate->open) pthread_cond_wait(&gate->changed, &gate->lock);
  pthread_mutex_unlock(&gate->lock);
  return NULL;
}

static void pulse(struct gate *gate) {
  pthread_mutex_lock(&gate->lock);
  gate->open = 1;
  pthread_cond_broadcast(&gate->changed);
  pthread_mutex_unlock(&gate->lock);
}

static void close_gate(struct gate *gate) {
  pthread_mutex_lock(&gate->lock);
  gate->open = 0;
  pthread_mutex_unlock(&gate->lock);
}

static int worker_parked(struct gate *gate) {
  pthread_mutex_lock(&gate->lock);
  int parked = gate->parked;
  pthread_mutex_unlock(&gate->lock);
  return parked;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, &g_gate);
  while (!worker_parked(&g_gate)) sched_yield();
  pulse(&g_gate);
  close_gate(&g_gate);
  pthread_join(t, NULL);
  return 0;
}

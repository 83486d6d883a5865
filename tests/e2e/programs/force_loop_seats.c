/* force_loop_seats.c - two booking agents sell the last seats of a flight.
 *
 * Bug: check-then-act. An agent checks `seats_left > 0` without the lock and then takes a seat
 *   under the lock; when one seat is left, two agents can both see it and both take it.
 * Root cause: the check (`if (flight.seats_left > 0)`) of one agent and the decrement
 *   (`flight.seats_left--;`) of the other interleave at the LAST seat: R1 - W2 - W1.
 *   The same interleaving at an earlier seat is harmless (both seats existed).
 * Failure: assertion in main (`flight.seats_left >= 0`).
 * Forcing trap: the pattern's steps run once per loop iteration; forcing the first iteration
 *   completes the order without any effect on the outcome.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define REQUESTS 3

struct flight {
  pthread_mutex_t lock;
  int seats_left;
  int sold;
};

static struct flight flight = {PTHREAD_MUTEX_INITIALIZER, 4, 0};

static void *agent(void *arg) {
  (void)arg;
  for (int i = 0; i < REQUESTS; i++) {
    if (flight.seats_left > 0) {
      pthread_mutex_lock(&flight.lock);
      flight.seats_left--;
      flight.sold++;
      pthread_mutex_unlock(&flight.lock);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, agent, NULL);
  pthread_create(&b, NULL, agent, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(flight.seats_left >= 0 && "overbooked");
  return 0;
}

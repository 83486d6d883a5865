// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause seats_left R1@19 W2@26 W1@26
// ctrlsched-truth: cause seats_left R1@19 W2@26 R1@26
/* seat_booking.c - two customers try to book the last seat of a show.
 *
 * Both the availability check and the booking take the lock, but separately: between them the
 * other customer can book the same seat, and the show ends up overbooked.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int seats_left = 1; /* guarded by lock */
static int tickets;        /* guarded by lock */

static int seats_available(void) {
  pthread_mutex_lock(&lock);
  int n = seats_left;
  pthread_mutex_unlock(&lock);
  return n;
}

static void book_seat(void) {
  pthread_mutex_lock(&lock);
  seats_left--;
  tickets++;
  pthread_mutex_unlock(&lock);
}

static void *customer(void *arg) {
  const char *name = arg;
  if (seats_available() > 0) {
    book_seat();
    printf("%s booked a seat\n", name);
  } else {
    printf("%s: sold out\n", name);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, customer, "alice");
  pthread_create(&b, NULL, customer, "bob");
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(seats_left >= 0 && "show overbooked");
  assert(tickets == 1);
  return 0;
}

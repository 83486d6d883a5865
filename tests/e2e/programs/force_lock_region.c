/* force_lock_region.c - an inventory whose reservation reads and writes the stock in two separate
 * critical sections, while main computes a price list concurrently.
 *
 * Bug: atomicity violation. reserve() reads the stock under the lock, releases it, and writes the
 *   new stock under the lock again; another reserve() in between is overwritten.
 * Root cause: `int stock = inv.stock;` (inside the first critical section) of one worker and
 *   `inv.stock = stock - n;` of another: R1 - W2 - W1.
 * Failure: assertion in main (`inv.stock == 10 - 2 - 3`).
 * Forcing trap: the first step sits inside a lock region the partner needs; holding the first
 *   worker right after its read keeps the lock held, so the partner starves while main (busy with
 *   the price list) keeps the run going until the hold's budget runs out.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define PRICES 600

struct inventory {
  pthread_mutex_t lock;
  int stock;
};

static struct inventory inv = {PTHREAD_MUTEX_INITIALIZER, 10};
static long prices[PRICES];

static void reserve(int n) {
  pthread_mutex_lock(&inv.lock);
  int stock = inv.stock;
  pthread_mutex_unlock(&inv.lock);
  if (stock < n) return;
  pthread_mutex_lock(&inv.lock);
  inv.stock = stock - n;
  pthread_mutex_unlock(&inv.lock);
}

static void *worker(void *arg) {
  reserve((int)(size_t)arg);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)(size_t)2);
  pthread_create(&b, NULL, worker, (void *)(size_t)3);
  for (int i = 0; i < PRICES; i++) prices[i] = (i * 13L) % 97 + (i > 0 ? prices[i - 1] / 50 : 0);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(inv.stock == 10 - 2 - 3 && "a reservation was lost");
  return prices[PRICES - 1] < 0;
}

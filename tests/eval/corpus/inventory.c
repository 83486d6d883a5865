// ctrlsched-truth: class=check_then_act fails=signal
// ctrlsched-truth: cause stock R1@31 W2@33 R1@33
// ctrlsched-truth: cause stock R1@31 W2@33 W1@33
// ctrlsched-truth: cause stock R1@32 W2@33 R1@33
/* inventory.c - order threads reserve items from a shared stock.
 *
 * reserve() checks that enough items are in stock and then takes them, without a lock: two
 * orders can both pass the check and drive the stock negative. The audit after each
 * reservation notices, records the error (a shared error counter and message, and a log line
 * under the log lock) and aborts: that error path runs after the failure is decided.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int stock = 3;
static int g_errors;
static const char *g_last_error;
static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;

static void report_error(const char *what) {
  pthread_mutex_lock(&g_log_lock);
  g_errors++;
  g_last_error = what;
  fprintf(stderr, "inventory: %s (errors so far: %d)\n", g_last_error, g_errors);
  pthread_mutex_unlock(&g_log_lock);
}

static int reserve(int quantity) {
  if (stock >= quantity) {
    printf("reserving %d of %d\n", quantity, stock);
    stock -= quantity;
    return 1;
  }
  return 0;
}

static void *order(void *arg) {
  int quantity = (int)(intptr_t)arg;
  int ok = reserve(quantity);
  if (stock < 0) {
    report_error("stock went negative");
    abort();
  }
  printf("order of %d: %s\n", quantity, ok ? "reserved" : "out of stock");
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, order, (void *)(intptr_t)2);
  pthread_create(&b, NULL, order, (void *)(intptr_t)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause inventory_lock,orders_lock,billing_lock lock1@29:inventory_lock lock2@44:orders_lock lock3@57:billing_lock lock1@31:orders_lock lock2@47:billing_lock lock3@59:inventory_lock
/*
 * Order desk with three ledgers: stock levels, open orders and invoices.
 * The restocker fills back-orders (inventory, then orders), the shipper
 * bills shipped orders (orders, then billing) and the auditor reconciles
 * invoices against stock (billing, then inventory).
 *
 * Bug: the documented lock order is inventory -> orders -> billing, but the
 * auditor takes billing before inventory.  If all three threads hold their
 * first lock at once, each waits for the next one's: a three-way deadlock.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t inventory_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t orders_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t billing_lock = PTHREAD_MUTEX_INITIALIZER;

static int stock = 3;          /* inventory_lock */
static int backorders = 4;     /* orders_lock */
static int shipped = 2;        /* orders_lock */
static long invoiced_cents;    /* billing_lock */
static int audit_mismatches;   /* billing_lock */

static void *restocker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&inventory_lock);
    stock += 10;
    pthread_mutex_lock(&orders_lock);
    int filled = backorders < stock ? backorders : stock;
    stock -= filled;
    backorders -= filled;
    shipped += filled;
    pthread_mutex_unlock(&orders_lock);
    pthread_mutex_unlock(&inventory_lock);
    return NULL;
}

static void *shipper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&orders_lock);
    int to_bill = shipped;
    shipped = 0;
    pthread_mutex_lock(&billing_lock);
    invoiced_cents += to_bill * 1999L;
    pthread_mutex_unlock(&billing_lock);
    pthread_mutex_unlock(&orders_lock);
    return NULL;
}

static void *auditor(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&billing_lock);
    long billed = invoiced_cents;
    pthread_mutex_lock(&inventory_lock);
    if (stock < 0 || billed < 0)
        audit_mismatches++;
    pthread_mutex_unlock(&inventory_lock);
    pthread_mutex_unlock(&billing_lock);
    return NULL;
}

int main(void)
{
    pthread_t r, s, a;
    pthread_create(&r, NULL, restocker, NULL);
    pthread_create(&s, NULL, shipper, NULL);
    pthread_create(&a, NULL, auditor, NULL);
    pthread_join(r, NULL);
    pthread_join(s, NULL);
    pthread_join(a, NULL);
    printf("stock=%d backorders=%d invoiced=%ld mismatches=%d\n",
           stock, backorders, invoiced_cents, audit_mismatches);
    return 0;
}

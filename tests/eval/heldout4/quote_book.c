// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_book W1@21:g_book+56 R2@56:g_book+56 R2@57:g_book+64 W1@29:g_book+64
/* Top of book for the market-data gateway: the feed thread applies quote
 * updates, the pricing thread reads bid and ask to quote a mid price. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct book {
    pthread_rwlock_t lock;
    long bid; /* in ticks */
    long ask;
    unsigned long updates;
};

static struct book g_book = { PTHREAD_RWLOCK_INITIALIZER, 10000, 10010, 0 };

static void set_bid(long px)
{
    pthread_rwlock_wrlock(&g_book.lock);
    g_book.bid = px;
    g_book.updates++;
    pthread_rwlock_unlock(&g_book.lock);
}

static void set_ask(long px)
{
    pthread_rwlock_wrlock(&g_book.lock);
    g_book.ask = px;
    g_book.updates++;
    pthread_rwlock_unlock(&g_book.lock);
}

/* A feed message carries both sides; apply them through the setters. */
static void apply_quote(long bid, long ask)
{
    set_bid(bid);
    set_ask(ask);
}

static void *feed(void *arg)
{
    long px = *(long *)arg;
    for (int i = 0; i < 3; i++) {
        px += 20; /* the market moves up */
        apply_quote(px, px + 10);
    }
    return NULL;
}

static void *pricer(void *arg)
{
    long *mids = arg;
    for (int i = 0; i < 4; i++) {
        pthread_rwlock_rdlock(&g_book.lock);
        long bid = g_book.bid;
        long ask = g_book.ask;
        pthread_rwlock_unlock(&g_book.lock);
        assert(bid < ask && "crossed book");
        mids[i] = (bid + ask) / 2;
    }
    return NULL;
}

int main(void)
{
    long start = 10000;
    long mids[4];
    pthread_t f, p;
    pthread_create(&f, NULL, feed, &start);
    pthread_create(&p, NULL, pricer, mids);
    pthread_join(f, NULL);
    pthread_join(p, NULL);
    printf("mids %ld %ld %ld %ld after %lu updates\n", mids[0], mids[1], mids[2], mids[3],
           g_book.updates);
    return 0;
}

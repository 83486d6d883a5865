// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause * W1@52 W2@52 R1@53
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum buf_state { BUF_LIVE = 0x11fe, BUF_POOLED = 0xdead };

struct buf {
    int refs;
    int state;
    struct buf *next;
    size_t len;
    unsigned char data[256];
};

pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
struct buf *g_pool;
int g_pool_count;

static struct buf *buf_get(size_t len)
{
    struct buf *b;

    pthread_mutex_lock(&g_pool_lock);
    b = g_pool;
    if (b) {
        g_pool = b->next;
        g_pool_count--;
    }
    pthread_mutex_unlock(&g_pool_lock);
    if (!b) {
        b = malloc(sizeof(*b));
        if (!b)
            abort();
    }
    b->refs = 1;
    b->state = BUF_LIVE;
    b->next = NULL;
    b->len = len;
    return b;
}

static void buf_hold(struct buf *b)
{
    __atomic_fetch_add(&b->refs, 1, __ATOMIC_RELAXED);
}

static void buf_put(struct buf *b)
{
    __atomic_fetch_sub(&b->refs, 1, __ATOMIC_ACQ_REL);
    if (__atomic_load_n(&b->refs, __ATOMIC_ACQUIRE) != 0)
        return;
    assert(b->state == BUF_LIVE);
    b->state = BUF_POOLED;
    pthread_mutex_lock(&g_pool_lock);
    b->next = g_pool;
    g_pool = b;
    g_pool_count++;
    pthread_mutex_unlock(&g_pool_lock);
}

struct reader {
    struct buf *b;
    unsigned sum;
};

static void *reader_main(void *arg)
{
    struct reader *r = arg;

    for (size_t i = 0; i < r->b->len; i++)
        r->sum += r->b->data[i];
    buf_put(r->b);
    return NULL;
}

int main(void)
{
    struct buf *b = buf_get(sizeof(((struct buf *)0)->data));
    struct reader rd[2];
    pthread_t tid[2];

    for (size_t i = 0; i < b->len; i++)
        b->data[i] = (unsigned char)(i * 7 + 3);

    buf_hold(b);
    for (int i = 0; i < 2; i++) {
        rd[i].b = b;
        rd[i].sum = 0;
        if (pthread_create(&tid[i], NULL, reader_main, &rd[i]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);

    assert(rd[0].sum == rd[1].sum);
    assert(g_pool_count == 1);
    while (g_pool) {
        struct buf *n = g_pool->next;
        free(g_pool);
        g_pool = n;
    }
    printf("checksum %u\n", rd[0].sum);
    return 0;
}

// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_pool_lock,g_conns lock1@22:g_pool_lock lock2@53:g_conns lock2@55:g_pool_lock lock1@26:g_conns
// ctrlsched-truth: cause g_pool_lock,g_conns lock1@53:g_conns lock2@22:g_pool_lock lock2@26:g_conns lock1@55:g_pool_lock
// Database connection pool with an idle-trimming reaper. checkout() pops a
// connection off the free list and, still holding the pool lock, locks the
// connection to mark it busy (pool -> conn). The reaper locks a connection to
// inspect it, then takes the pool lock to unlink a surplus idle one (conn ->
// pool). When both meet on one connection, each waits for the other forever.
#include <assert.h>
#include <threads.h>

#define NCONN 3
#define MAX_IDLE 2
#define ROUNDS 2
struct conn { mtx_t lock; int in_use, closed; struct conn *next; };
static mtx_t g_pool_lock; /* guards g_free, g_nfree and conn.next */
static struct conn g_conns[NCONN];
static struct conn *g_free;
static int g_nfree;

static struct conn *checkout(void) {
    mtx_lock(&g_pool_lock);
    struct conn *c = g_free;
    g_free = c->next;
    g_nfree--;
    mtx_lock(&c->lock);
    c->in_use = 1;
    mtx_unlock(&c->lock);
    mtx_unlock(&g_pool_lock);
    return c;
}

static void release(struct conn *c) {
    mtx_lock(&c->lock);
    c->in_use = 0;
    mtx_unlock(&c->lock);
    mtx_lock(&g_pool_lock);
    c->next = g_free;
    g_free = c;
    g_nfree++;
    mtx_unlock(&g_pool_lock);
}

static int client(void *arg) {
    for (int i = 0; i < ROUNDS; i++)
        release(checkout());
    return arg != NULL;
}

static int reaper(void *arg) {
    for (int i = 0; i < NCONN; i++) {
        struct conn *c = &g_conns[i];
        mtx_lock(&c->lock);
        if (!c->in_use && !c->closed) {
            mtx_lock(&g_pool_lock);
            for (struct conn **p = &g_free; *p && g_nfree > MAX_IDLE; p = &(*p)->next)
                if (*p == c) { *p = c->next; g_nfree--; c->closed = 1; break; }
            mtx_unlock(&g_pool_lock);
        }
        mtx_unlock(&c->lock);
    }
    return arg != NULL;
}

int main(void) {
    mtx_init(&g_pool_lock, mtx_plain);
    for (int i = NCONN - 1; i >= 0; i--) {
        mtx_init(&g_conns[i].lock, mtx_plain);
        g_conns[i].next = g_free, g_free = &g_conns[i], g_nfree++;
    }
    thrd_t t1, t2;
    thrd_create(&t1, client, NULL);
    thrd_create(&t2, reaper, NULL);
    thrd_join(t1, NULL);
    thrd_join(t2, NULL);
    int closed = 0;
    for (int i = 0; i < NCONN; i++) closed += g_conns[i].closed;
    assert(g_nfree + closed == NCONN);
    return 0;
}

// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_pool R1@33 W2@37 R1@36
/*
 * A tiny database connection pool. Callers that find the pool empty do not block: they get
 * NULL and fall back to the read replica. The emptiness test is done without the spinlock
 * because it is on every request's path and "a stale answer only means one extra fallback".
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#define POOL_SIZE 1

struct db_conn {
    int id;
    int queries;
};

struct conn_pool {
    pthread_spinlock_t lock;
    int nfree;
    struct db_conn *free_list[POOL_SIZE];
};

static struct db_conn g_conns[POOL_SIZE] = { { 1, 0 } };
static struct conn_pool g_pool;
static atomic_int g_replica_fallbacks;

static struct db_conn *pool_acquire(struct conn_pool *p)
{
    if (p->nfree == 0)
        return NULL;
    pthread_spin_lock(&p->lock);
    assert(p->nfree > 0 && "connection pool accounting is broken");
    struct db_conn *c = p->free_list[--p->nfree];
    pthread_spin_unlock(&p->lock);
    return c;
}

static void pool_release(struct conn_pool *p, struct db_conn *c)
{
    pthread_spin_lock(&p->lock);
    p->free_list[p->nfree++] = c;
    pthread_spin_unlock(&p->lock);
}

static void *handle_request(void *arg)
{
    (void)arg;
    struct db_conn *c = pool_acquire(&g_pool);
    if (c == NULL) {
        atomic_fetch_add(&g_replica_fallbacks, 1);
        return NULL;
    }
    c->queries++;
    pool_release(&g_pool, c);
    return NULL;
}

int main(void)
{
    pthread_spin_init(&g_pool.lock, PTHREAD_PROCESS_PRIVATE);
    for (int i = 0; i < POOL_SIZE; i++)
        pool_release(&g_pool, &g_conns[i]);

    pthread_t a, b;
    pthread_create(&a, NULL, handle_request, NULL);
    pthread_create(&b, NULL, handle_request, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    printf("primary queries: %d, replica fallbacks: %d\n", g_conns[0].queries,
           atomic_load(&g_replica_fallbacks));
    return 0;
}

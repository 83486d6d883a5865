// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_main_rt,g_backup_rt lock1@73:g_main_rt lock2@73:g_backup_rt lock2@76:g_main_rt lock1@76:g_backup_rt
// ctrlsched-truth: cause g_main_rt,g_backup_rt lock1@73:g_backup_rt lock2@73:g_main_rt lock2@76:g_backup_rt lock1@76:g_main_rt
/*
 * route_swap.c - moving routes between the main and the backup table.
 *
 * Each route table has its own lock.  The failover thread demotes routes
 * whose next hop went down from the main table to the backup table; the
 * restore thread promotes routes back once their next hop answers again.
 * A monitor thread samples the table sizes for the statistics page.
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUTES_PER_TABLE 16
#define MOVES            12

struct route {
    struct route *next;
    uint32_t      prefix;
    uint8_t       plen;
    uint32_t      nexthop;
    unsigned      metric;
};

struct route_table {
    pthread_mutex_t lock;
    const char     *name;
    struct route   *head;          /* sorted by prefix */
    unsigned        count;
};

static struct route_table g_main_rt   = { PTHREAD_MUTEX_INITIALIZER, "main", NULL, 0 };
static struct route_table g_backup_rt = { PTHREAD_MUTEX_INITIALIZER, "backup", NULL, 0 };

/* Caller holds t->lock. */
static void rt_insert_locked(struct route_table *t, struct route *r)
{
    struct route **pp = &t->head;
    while (*pp && (*pp)->prefix < r->prefix)
        pp = &(*pp)->next;
    r->next = *pp;
    *pp = r;
    t->count++;
}

/* Caller holds t->lock. */
static struct route *rt_unlink_locked(struct route_table *t, uint32_t prefix, uint8_t plen)
{
    for (struct route **pp = &t->head; *pp; pp = &(*pp)->next) {
        struct route *r = *pp;
        if (r->prefix == prefix && r->plen == plen) {
            *pp = r->next;
            r->next = NULL;
            t->count--;
            return r;
        }
    }
    return NULL;
}

/*
 * Move a route from src to dst.  The source stays locked until the route
 * is in the destination so that a lookup never finds it in neither table.
 */
static bool rt_move(struct route_table *src, struct route_table *dst,
                    uint32_t prefix, uint8_t plen)
{
    pthread_mutex_lock(&src->lock);
    struct route *r = rt_unlink_locked(src, prefix, plen);
    if (r) {
        pthread_mutex_lock(&dst->lock);
        rt_insert_locked(dst, r);
        pthread_mutex_unlock(&dst->lock);
    }
    pthread_mutex_unlock(&src->lock);
    return r != NULL;
}

static unsigned rt_count(struct route_table *t)
{
    pthread_mutex_lock(&t->lock);
    unsigned n = t->count;
    pthread_mutex_unlock(&t->lock);
    return n;
}

static void rt_add(struct route_table *t, uint32_t prefix, uint8_t plen, uint32_t nexthop)
{
    struct route *r = calloc(1, sizeof(*r));
    if (!r)
        abort();
    r->prefix = prefix;
    r->plen = plen;
    r->nexthop = nexthop;
    r->metric = 10;
    pthread_mutex_lock(&t->lock);
    rt_insert_locked(t, r);
    pthread_mutex_unlock(&t->lock);
}

/* Stand-in for probing a next hop: a little arithmetic per attempt. */
static bool nexthop_alive(uint32_t nexthop, int attempt)
{
    uint32_t h = nexthop ^ (uint32_t)attempt * 0x9e3779b9u;
    for (int i = 0; i < 400; i++)
        h = (h ^ (h >> 15)) * 0x2c1b3c6du;
    return (h & 3) != 0;
}

static uint32_t main_prefix(int i)   { return 0x0a000000u | ((uint32_t)i << 8); }
static uint32_t backup_prefix(int i) { return 0xc0a80000u | ((uint32_t)i << 8); }

static void *failover(void *arg)
{
    (void)arg;
    int moved = 0;
    for (int i = 0; i < MOVES; i++) {
        if (!nexthop_alive(0x0a0000feu, i))
            moved += rt_move(&g_main_rt, &g_backup_rt, main_prefix(i), 24);
    }
    return (void *)(long)moved;
}

static void *restore(void *arg)
{
    (void)arg;
    int moved = 0;
    for (int i = 0; i < MOVES; i++) {
        if (nexthop_alive(0xc0a800feu, i))
            moved += rt_move(&g_backup_rt, &g_main_rt, backup_prefix(i), 24);
    }
    return (void *)(long)moved;
}

static void *monitor(void *arg)
{
    unsigned *max_total = arg;
    for (int sample = 0; sample < 50; sample++) {
        unsigned total = rt_count(&g_main_rt) + rt_count(&g_backup_rt);
        if (total > *max_total)
            *max_total = total;
    }
    return NULL;
}

int main(void)
{
    pthread_t f, r, m;
    unsigned max_total = 0;
    void *demoted, *promoted;

    for (int i = 0; i < ROUTES_PER_TABLE; i++) {
        rt_add(&g_main_rt, main_prefix(i), 24, 0x0a0000feu);
        rt_add(&g_backup_rt, backup_prefix(i), 24, 0xc0a800feu);
    }

    pthread_create(&m, NULL, monitor, &max_total);
    pthread_create(&f, NULL, failover, NULL);
    pthread_create(&r, NULL, restore, NULL);
    pthread_join(f, &demoted);
    pthread_join(r, &promoted);
    pthread_join(m, NULL);

    assert(rt_count(&g_main_rt) + rt_count(&g_backup_rt) == 2 * ROUTES_PER_TABLE);
    printf("demoted %ld, promoted %ld, main %u, backup %u, max seen %u\n",
           (long)demoted, (long)promoted, rt_count(&g_main_rt),
           rt_count(&g_backup_rt), max_total);
    return 0;
}

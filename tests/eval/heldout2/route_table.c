// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_routes,g_nroutes W1@58:g_nroutes R2@36:g_routes R2@37:g_nroutes W1@59:g_routes
// ctrlsched-truth: cause g_routes,g_nroutes R1@36:g_routes W2@58:g_nroutes R1@37:g_nroutes W2@59:g_routes
// ctrlsched-truth: cause g_routes,g_nroutes R1@36:g_routes W2@58:g_nroutes W2@59:g_routes R1@37:g_nroutes
/*
 * Forwarding table of a small software router. The data plane looks routes up without locks;
 * the control plane builds a new table off to the side and publishes it with two atomic
 * stores (the entry count and the table pointer), each of which is atomic on its own.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#define MAX_ROUTES 4

struct route {
    bool valid;
    unsigned prefix;
    unsigned mask;
    int port;
};

static struct route g_table_boot[MAX_ROUTES] = {
    { true, 0x0a000000u, 0xff000000u, 1 },   /* 10.0.0.0/8     -> port 1 */
    { true, 0x00000000u, 0x00000000u, 9 },   /* default route  -> port 9 */
};
static struct route g_table_next[MAX_ROUTES];

static _Atomic(struct route *) g_routes = g_table_boot;
static atomic_int g_nroutes = 2;

static int route_lookup(unsigned addr)
{
    struct route *table = atomic_load(&g_routes);
    int n = atomic_load(&g_nroutes);
    int port = -1;
    unsigned best_mask = 0;
    for (int i = 0; i < n; i++) {   /* longest prefix wins */
        assert(table[i].valid && "lookup ran into an unpopulated route slot");
        if ((addr & table[i].mask) == table[i].prefix && (port < 0 || table[i].mask > best_mask)) {
            port = table[i].port;
            best_mask = table[i].mask;
        }
    }
    return port;
}

static void *control_plane(void *arg)
{
    (void)arg;
    /* BGP session came up: two more routes, installed ahead of the old ones. */
    g_table_next[0] = (struct route){ true, 0xc0a80000u, 0xffff0000u, 3 };  /* 192.168/16 */
    g_table_next[1] = (struct route){ true, 0xac100000u, 0xfff00000u, 4 };  /* 172.16/12  */
    g_table_next[2] = g_table_boot[0];
    g_table_next[3] = g_table_boot[1];
    atomic_store(&g_nroutes, 4);
    atomic_store(&g_routes, g_table_next);
    return NULL;
}

static void *data_plane(void *arg)
{
    int *ports = arg;
    const unsigned packets[3] = { 0xc0a80105u, 0x0a010203u, 0x08080808u };
    for (int i = 0; i < 3; i++)
        ports[i] = route_lookup(packets[i]);
    return NULL;
}

int main(void)
{
    pthread_t cp, dp;
    int ports[3];
    pthread_create(&dp, NULL, data_plane, ports);
    pthread_create(&cp, NULL, control_plane, NULL);
    pthread_join(dp, NULL);
    pthread_join(cp, NULL);
    printf("forwarded to ports %d %d %d\n", ports[0], ports[1], ports[2]);
    return 0;
}

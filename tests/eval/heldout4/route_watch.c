// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_routes R1@43 W2@73
/* Route watcher: a background thread re-validates the routing table on every
 * tick and logs routes with a bad metric; main loads the table from the
 * configuration at start-up. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct route {
    char prefix[20];
    int metric;
};

struct route_table {
    int count;
    struct route *routes;
};

static struct route_table *g_routes;
static pthread_mutex_t g_routes_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_log_once = PTHREAD_ONCE_INIT;
static FILE *g_log;

static void open_log(void) { g_log = stderr; }

static int count_bad(const struct route_table *t)
{
    int bad = 0;
    for (int i = 0; i < t->count; i++)
        if (t->routes[i].metric <= 0)
            bad++;
    return bad;
}

static void *watcher(void *arg)
{
    int ticks = *(int *)arg;
    pthread_once(&g_log_once, open_log);
    for (int tick = 0; tick < ticks; tick++) {
        pthread_mutex_lock(&g_routes_lock);
        int bad = count_bad(g_routes);
        pthread_mutex_unlock(&g_routes_lock);
        if (bad)
            fprintf(g_log, "watcher: %d routes with a bad metric\n", bad);
    }
    return NULL;
}

static struct route_table *load_routes(const char *const *lines, int n)
{
    struct route_table *t = calloc(1, sizeof *t);
    t->routes = calloc(n, sizeof *t->routes);
    for (int i = 0; i < n; i++) {
        struct route *r = &t->routes[t->count++];
        if (sscanf(lines[i], "%19s %d", r->prefix, &r->metric) != 2)
            r->metric = 0;
    }
    return t;
}

int main(void)
{
    static const char *const config[] = { "10.0.0.0/8 10", "192.168.0.0/16 20", "0.0.0.0/0 100" };
    int ticks = 3;
    pthread_t w;

    struct route_table *t = load_routes(config, 3);
    /* Start the watcher before the table goes live: it checks every version. */
    pthread_create(&w, NULL, watcher, &ticks);
    pthread_mutex_lock(&g_routes_lock);
    g_routes = t;
    pthread_mutex_unlock(&g_routes_lock);

    pthread_join(w, NULL);
    printf("%d routes loaded\n", g_routes->count);
    free(g_routes->routes);
    free(g_routes);
    return 0;
}

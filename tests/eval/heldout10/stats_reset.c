// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_stats R1@50 W2@41 W1@58
/*
 * stats_reset.c - per-window request statistics for a small HTTP front end.
 *
 * Worker threads count every request they route.  The reporter thread closes
 * a window every so often: it reads the window's hit count, folds it into the
 * lifetime total and the per-window history, and starts a fresh window.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_WORKERS       2
#define REQS_PER_WORKER   40
#define NUM_ROUTES        8
#define REPORT_ROUNDS     4

struct window_stats {
    pthread_mutex_t lock;
    unsigned long hits;       /* requests seen in the current window */
    unsigned windows;         /* windows closed so far */
};

static struct window_stats g_stats = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Owned by the reporter thread. */
static unsigned long lifetime_hits;
static unsigned long window_history[REPORT_ROUNDS];

static const char *const paths[] = {
    "/", "/index.html", "/api/v1/users", "/api/v1/orders",
    "/static/app.js", "/static/app.css", "/healthz", "/api/v1/cart",
};

static void stats_count_hit(void)
{
    pthread_mutex_lock(&g_stats.lock);
    g_stats.hits++;
    pthread_mutex_unlock(&g_stats.lock);
}

static unsigned long stats_window_hits(void)
{
    unsigned long n;

    pthread_mutex_lock(&g_stats.lock);
    n = g_stats.hits;
    pthread_mutex_unlock(&g_stats.lock);
    return n;
}

static void stats_reset_window(void)
{
    pthread_mutex_lock(&g_stats.lock);
    g_stats.hits = 0;
    g_stats.windows++;
    pthread_mutex_unlock(&g_stats.lock);
}

/* djb2 over the path, the same hash the router table is built with. */
static unsigned route_of(const char *path)
{
    unsigned h = 5381;

    for (const char *p = path; *p != '\0'; p++)
        h = h * 33u + (unsigned char)*p;
    return h % NUM_ROUTES;
}

struct worker {
    unsigned id;
    unsigned route_hits[NUM_ROUTES];
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    unsigned npaths = sizeof paths / sizeof paths[0];

    for (unsigned i = 0; i < REQS_PER_WORKER; i++) {
        const char *path = paths[(i * 5u + w->id) % npaths];

        w->route_hits[route_of(path)]++;
        stats_count_hit();
    }
    return NULL;
}

static void *reporter_main(void *arg)
{
    (void)arg;
    for (unsigned round = 0; round < REPORT_ROUNDS; round++) {
        unsigned long n = stats_window_hits();

        lifetime_hits += n;
        window_history[round] = n;
        stats_reset_window();
    }
    return NULL;
}

int main(void)
{
    struct worker workers[NUM_WORKERS];
    pthread_t tids[NUM_WORKERS], reporter;

    memset(workers, 0, sizeof workers);
    for (unsigned i = 0; i < NUM_WORKERS; i++) {
        workers[i].id = i;
        if (pthread_create(&tids[i], NULL, worker_main, &workers[i]) != 0) {
            perror("pthread_create");
            return EXIT_FAILURE;
        }
    }
    if (pthread_create(&reporter, NULL, reporter_main, NULL) != 0) {
        perror("pthread_create");
        return EXIT_FAILURE;
    }
    for (unsigned i = 0; i < NUM_WORKERS; i++)
        pthread_join(tids[i], NULL);
    pthread_join(reporter, NULL);

    /* Every request lands in exactly one window: closed or current. */
    assert(lifetime_hits + g_stats.hits
           == (unsigned long)NUM_WORKERS * REQS_PER_WORKER);
    assert(g_stats.windows == REPORT_ROUNDS);

    printf("lifetime %lu hits over %u windows (+%lu open)",
           lifetime_hits, g_stats.windows, g_stats.hits);
    for (unsigned r = 0; r < REPORT_ROUNDS; r++)
        printf(" %lu", window_history[r]);
    printf("\n");
    return 0;
}

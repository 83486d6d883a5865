// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_metrics R1@24 W2@45
// Service startup: the metrics flusher thread is started early, then the metrics registry is
// allocated. The flusher's first pass loads the registry pointer before main has set it and
// dereferences NULL.
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

struct metrics {
    long requests;
    long errors;
    int flushes;
};

static struct metrics *g_metrics;
static atomic_int g_stop;

static int flusher(void *arg)
{
    (void)arg;
    do {
        struct metrics *m = g_metrics;
        printf("requests=%ld errors=%ld\n", m->requests, m->errors);
        m->flushes++;
        thrd_yield();
    } while (!atomic_load(&g_stop));
    return 0;
}

static struct metrics *metrics_new(void)
{
    struct metrics *m = calloc(1, sizeof *m);
    if (m == NULL)
        abort();
    return m;
}

int main(void)
{
    thrd_t t;
    if (thrd_create(&t, flusher, NULL) != thrd_success)
        return 2;
    g_metrics = metrics_new();

    for (int i = 0; i < 5; i++) {
        g_metrics->requests++; /* serve a request */
        if (i == 3)
            g_metrics->errors++;
    }
    atomic_store(&g_stop, 1);
    thrd_join(t, NULL);
    printf("flushed %d times\n", g_metrics->flushes);
    free(g_metrics);
    return 0;
}

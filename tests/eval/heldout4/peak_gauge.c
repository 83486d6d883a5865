// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_peak R1@16 W2@18 W1@18
/* Peak-connections gauge of the proxy: each acceptor thread reports its open
 * connection count after every accept batch; the gauge keeps the highest
 * value ever seen, for the capacity dashboard. */
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>

static atomic_int g_peak;
static atomic_int g_samples;

static void gauge_report(int open_conns)
{
    int peak = atomic_load_explicit(&g_peak, memory_order_relaxed);
    if (open_conns > peak)
        atomic_store_explicit(&g_peak, open_conns, memory_order_relaxed);
    atomic_fetch_add_explicit(&g_samples, 1, memory_order_relaxed);
}

struct acceptor {
    const char *name;
    int batches[3]; /* connections accepted (+) or closed (-) per batch */
};

static int acceptor_main(void *arg)
{
    struct acceptor *a = arg;
    int open_conns = 0;
    for (int i = 0; i < 3; i++) {
        open_conns += a->batches[i];
        gauge_report(open_conns);
    }
    return 0;
}

int main(void)
{
    static struct acceptor east = { "east", { 3, 6, -5 } };
    static struct acceptor west = { "west", { 4, 3, -2 } };
    thrd_t te, tw;

    if (thrd_create(&te, acceptor_main, &east) != thrd_success ||
        thrd_create(&tw, acceptor_main, &west) != thrd_success) {
        fprintf(stderr, "thrd_create failed\n");
        return 2;
    }
    thrd_join(te, NULL);
    thrd_join(tw, NULL);

    int peak = atomic_load(&g_peak);
    printf("peak %d open connections over %d samples\n", peak, atomic_load(&g_samples));
    assert(peak == 9 && "gauge lost the peak");
    return 0;
}

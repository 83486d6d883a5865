// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_nmetrics R1@23 W2@33 W1@33
/* Metric registry of the service: main registers the built-in metrics at
 * start-up, then each plugin registers its own from its init thread. */
#include <stdio.h>
#include <string.h>
#include <threads.h>

#define MAX_METRICS 16

struct metric {
    char name[24];
    long value;
};

static struct metric g_metrics[MAX_METRICS];
static int g_nmetrics;
static mtx_t g_reg_lock;

static int register_metric(const char *name)
{
    mtx_lock(&g_reg_lock);
    int slot = g_nmetrics;
    mtx_unlock(&g_reg_lock);
    if (slot == MAX_METRICS)
        return -1;

    /* Fill the slot outside the lock: nobody looks past g_nmetrics. */
    snprintf(g_metrics[slot].name, sizeof g_metrics[slot].name, "%s", name);
    g_metrics[slot].value = 0;

    mtx_lock(&g_reg_lock);
    g_nmetrics = slot + 1;
    mtx_unlock(&g_reg_lock);
    return slot;
}

static int find_metric(const char *name)
{
    int found = -1;
    mtx_lock(&g_reg_lock);
    for (int i = 0; i < g_nmetrics && found < 0; i++)
        if (strcmp(g_metrics[i].name, name) == 0)
            found = i;
    mtx_unlock(&g_reg_lock);
    return found;
}

static int plugin_init(void *arg)
{
    return register_metric(arg) < 0;
}

int main(void)
{
    static char cache_hits[] = "cache_hits", disk_reads[] = "disk_reads";
    static const char *const expected[] = { "requests", "errors", "cache_hits", "disk_reads" };
    thrd_t a, b;

    mtx_init(&g_reg_lock, mtx_plain);
    register_metric("requests");
    register_metric("errors");
    thrd_create(&a, plugin_init, cache_hits);
    thrd_create(&b, plugin_init, disk_reads);
    thrd_join(a, NULL);
    thrd_join(b, NULL);

    for (int i = 0; i < 4; i++) {
        if (find_metric(expected[i]) < 0) {
            fprintf(stderr, "metric registry: %s is missing (%d registered)\n", expected[i],
                    g_nmetrics);
            return 1;
        }
    }
    printf("%d metrics registered\n", g_nmetrics);
    return 0;
}

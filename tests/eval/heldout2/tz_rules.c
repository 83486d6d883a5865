// ctrlsched-truth: class=double_checked_locking fails=exit
// ctrlsched-truth: cause g_rules_loaded,g_nrules W1@51:g_rules_loaded R2@48:g_rules_loaded R2@56:g_nrules W1@43:g_nrules
/*
 * Time-zone rules, loaded lazily on the first lookup (double-checked: an acquire load of the
 * flag on the fast path, the mutex only while loading). The flag is raised before loading
 * because the loader resolves zone aliases through tz_find() itself, which must not try to
 * load again.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct tz_rule {
    const char *name;
    const char *alias_of;
    int utc_offset_min;
};

static struct tz_rule g_rules[8];
static size_t g_nrules;
static atomic_bool g_rules_loaded;
static pthread_mutex_t g_rules_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct tz_rule *tz_find(const char *name);

static void load_rules(void)
{
    static const struct tz_rule builtin[] = {
        { "UTC", NULL, 0 }, { "Europe/Paris", NULL, 60 }, { "Asia/Tokyo", NULL, 540 },
        { "CET", "Europe/Paris", 0 },
    };
    size_t n = sizeof builtin / sizeof builtin[0];
    memcpy(g_rules, builtin, sizeof builtin);
    for (size_t i = 0; i < n; i++) {
        if (g_rules[i].alias_of == NULL)
            continue;
        g_nrules = i;   /* aliases may only refer to zones listed before them */
        const struct tz_rule *target = tz_find(g_rules[i].alias_of);
        g_rules[i].utc_offset_min = target ? target->utc_offset_min : 0;
    }
    g_nrules = n;
}

static const struct tz_rule *tz_find(const char *name)
{
    if (!atomic_load_explicit(&g_rules_loaded, memory_order_acquire)) {
        pthread_mutex_lock(&g_rules_lock);
        if (!atomic_load_explicit(&g_rules_loaded, memory_order_relaxed)) {
            atomic_store_explicit(&g_rules_loaded, true, memory_order_release);
            load_rules();
        }
        pthread_mutex_unlock(&g_rules_lock);
    }
    for (size_t i = 0; i < g_nrules; i++)
        if (strcmp(g_rules[i].name, name) == 0)
            return &g_rules[i];
    return NULL;
}

static void *format_timestamp(void *arg)
{
    const char *zone = arg;
    const struct tz_rule *r = tz_find(zone);
    if (r == NULL) {
        fprintf(stderr, "unknown time zone %s\n", zone);
        return (void *)1;
    }
    printf("12:00 UTC is %02d:%02d in %s\n", (12 * 60 + r->utc_offset_min) / 60 % 24,
           (12 * 60 + r->utc_offset_min) % 60, zone);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    void *ra, *rb;
    pthread_create(&a, NULL, format_timestamp, "CET");
    pthread_create(&b, NULL, format_timestamp, "Asia/Tokyo");
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    return (ra == NULL && rb == NULL) ? 0 : 1;
}

// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_active,g_cfg R1@49:g_active W2@41:g_active R3@36:g_cfg W1@50:g_cfg
/*
 * Double-buffered service configuration. Request handlers read the active copy without a
 * lock; they pin it with a reader count so that a writer never overwrites a copy somebody is
 * still reading. Writers (the SIGHUP reload and the admin API) are serialized by a mutex:
 * each fills the inactive copy, once its stragglers are gone, and then flips the index.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

struct config {
    atomic_int readers;
    int max_conns;
    int timeout_ms;
    unsigned checksum;
};

static struct config g_cfg[2];
static atomic_int g_active;
static pthread_mutex_t g_writer_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned config_checksum(int max_conns, int timeout_ms)
{
    return (unsigned)max_conns * 2654435761u ^ (unsigned)timeout_ms;
}

static void publish_config(int max_conns, int timeout_ms)
{
    pthread_mutex_lock(&g_writer_lock);
    int next = 1 - atomic_load(&g_active);
    struct config *c = &g_cfg[next];
    while (atomic_load(&c->readers) != 0)   /* a handler still reads the old copy */
        sched_yield();
    c->max_conns = max_conns;
    c->timeout_ms = timeout_ms;
    c->checksum = config_checksum(max_conns, timeout_ms);
    atomic_store(&g_active, next);
    pthread_mutex_unlock(&g_writer_lock);
}

static void *request_handler(void *arg)
{
    int *served = arg;
    for (int req = 0; req < 2; req++) {
        struct config *c = &g_cfg[atomic_load(&g_active)];
        atomic_fetch_add(&c->readers, 1);
        int max_conns = c->max_conns;
        int timeout_ms = c->timeout_ms;
        unsigned checksum = c->checksum;
        atomic_fetch_sub(&c->readers, 1);
        assert(checksum == config_checksum(max_conns, timeout_ms) && "torn configuration");
        *served += max_conns > 0;
    }
    return NULL;
}

static void *sighup_reload(void *arg) { (void)arg; publish_config(256, 3000); return NULL; }
static void *admin_update(void *arg) { (void)arg; publish_config(512, 1500); return NULL; }

int main(void)
{
    g_cfg[0].max_conns = 128;
    g_cfg[0].timeout_ms = 5000;
    g_cfg[0].checksum = config_checksum(128, 5000);

    pthread_t handler, reload, admin;
    int served = 0;
    pthread_create(&handler, NULL, request_handler, &served);
    pthread_create(&reload, NULL, sighup_reload, NULL);
    pthread_create(&admin, NULL, admin_update, NULL);
    pthread_join(handler, NULL);
    pthread_join(reload, NULL);
    pthread_join(admin, NULL);
    printf("served %d requests, active config %d\n", served, atomic_load(&g_active));
    return 0;
}

// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_pending,g_idle R1@43:g_pending W2@35:g_pending signal2@37:g_idle wait1@46:g_idle
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NITEMS 8

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t g_idle = PTHREAD_COND_INITIALIZER;
int g_pending;
unsigned g_results[NITEMS];
unsigned g_inputs[NITEMS];

static unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static void submit(int n)
{
    pthread_mutex_lock(&g_lock);
    g_pending += n;
    pthread_mutex_unlock(&g_lock);
}

static void complete_one(void)
{
    pthread_mutex_lock(&g_lock);
    g_pending--;
    if (g_pending == 0)
        pthread_cond_signal(&g_idle);
    pthread_mutex_unlock(&g_lock);
}

static void drain_wait(void)
{
    if (g_pending == 0)
        return;
    pthread_mutex_lock(&g_lock);
    pthread_cond_wait(&g_idle, &g_lock);
    pthread_mutex_unlock(&g_lock);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < NITEMS; i++) {
        g_results[i] = hash32(g_inputs[i]);
        complete_one();
    }
    return NULL;
}

static void *flusher(void *arg)
{
    unsigned acc = 0;

    (void)arg;
    drain_wait();
    for (int i = 0; i < NITEMS; i++)
        acc ^= g_results[i];
    return (void *)(unsigned long)acc;
}

int main(void)
{
    pthread_t w, f;
    void *acc;
    unsigned expect = 0;

    for (int i = 0; i < NITEMS; i++) {
        g_inputs[i] = (unsigned)i * 2654435761u;
        expect ^= hash32(g_inputs[i]);
    }
    submit(NITEMS);

    if (pthread_create(&w, NULL, worker, NULL) != 0 ||
        pthread_create(&f, NULL, flusher, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(w, NULL);
    pthread_join(f, &acc);

    assert((unsigned)(unsigned long)acc == expect);
    printf("drained %d items, digest %08x\n", NITEMS, expect);
    return 0;
}

// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_meter R1@27 W2@36 W1@27
// ctrlsched-truth: cause g_meter R1@36 W2@27 W1@36
/* Upload meter: per-tenant byte accounting for the upload service. New chunks
 * are accounted under the meter lock; retransmitted chunks were already
 * counted as chunks, so the retransmit path only adds their bytes. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CHUNKS 4
#define RETRANSMITS 2

struct meter {
    pthread_mutex_t lock;
    long bytes;   /* bytes accepted, retransmits included (billing) */
    int chunks;   /* distinct chunks stored */
};

static struct meter g_meter = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
static unsigned long g_calls; /* debugging aid: how often the meter was hit */

static void account_chunk(long n)
{
    g_calls++;
    pthread_mutex_lock(&g_meter.lock);
    g_meter.bytes += n;
    g_meter.chunks++;
    pthread_mutex_unlock(&g_meter.lock);
}

/* Hot path on lossy links: a single add, no need to take the lock. */
static void account_retransmit(long n)
{
    g_calls++;
    g_meter.bytes += n;
}

static void *uploader(void *arg)
{
    long size = (long)arg;
    for (int i = 0; i < CHUNKS; i++)
        account_chunk(size);
    return NULL;
}

static void *retransmitter(void *arg)
{
    long size = (long)arg;
    for (int i = 0; i < RETRANSMITS; i++)
        account_retransmit(size);
    return NULL;
}

int main(void)
{
    pthread_t up, rt;
    pthread_create(&up, NULL, uploader, (void *)1000L);
    pthread_create(&rt, NULL, retransmitter, (void *)500L);
    pthread_join(up, NULL);
    pthread_join(rt, NULL);

    printf("accepted %ld bytes in %d chunks (%lu meter calls)\n",
           g_meter.bytes, g_meter.chunks, g_calls);
    assert(g_meter.bytes == CHUNKS * 1000L + RETRANSMITS * 500L);
    assert(g_meter.chunks == CHUNKS);
    return 0;
}

// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_shutdown,g_pool_cv R1@32:g_shutdown W2@58:g_shutdown signal2@59:g_pool_cv wait1@33:g_pool_cv
/* Background compaction pool of the storage engine: workers sleep on the pool
 * condition variable until a segment is queued or the pool shuts down. */
#include <pthread.h>
#include <stdio.h>

#define QCAP 8
#define WORKERS 2

static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_pool_cv = PTHREAD_COND_INITIALIZER;
static int g_queue[QCAP];
static int g_qlen;
static int g_shutdown;
static long g_reclaimed; /* bytes, under g_pool_lock */

static long compact_segment(int seg)
{
    long freed = 0;
    for (int block = 0; block < 64; block++)
        if ((seg * 31 + block) % 5 == 0)
            freed += 4096;
    return freed;
}

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&g_pool_lock);
        while (g_qlen == 0 && !g_shutdown)
            pthread_cond_wait(&g_pool_cv, &g_pool_lock);
        if (g_qlen == 0) { /* shut down and drained */
            pthread_mutex_unlock(&g_pool_lock);
            return NULL;
        }
        int seg = g_queue[--g_qlen];
        pthread_mutex_unlock(&g_pool_lock);

        long freed = compact_segment(seg);
        pthread_mutex_lock(&g_pool_lock);
        g_reclaimed += freed;
        pthread_mutex_unlock(&g_pool_lock);
    }
}

static void pool_submit(int seg)
{
    pthread_mutex_lock(&g_pool_lock);
    g_queue[g_qlen++] = seg;
    pthread_cond_signal(&g_pool_cv);
    pthread_mutex_unlock(&g_pool_lock);
}

static void pool_shutdown(void)
{
    g_shutdown = 1; /* a single int store: no need for the lock */
    pthread_cond_broadcast(&g_pool_cv);
}

int main(void)
{
    pthread_t workers[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&workers[i], NULL, worker, NULL);
    for (int seg = 1; seg <= 3; seg++)
        pool_submit(seg);
    pool_shutdown();
    for (int i = 0; i < WORKERS; i++)
        pthread_join(workers[i], NULL);
    printf("compaction reclaimed %ld bytes\n", g_reclaimed);
    return 0;
}

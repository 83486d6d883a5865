// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_buckets,g_count W1@35:g_buckets R2@56:g_buckets R2@59:g_count W1@38:g_count
// ctrlsched-truth: cause g_buckets,g_count R1@56:g_buckets W2@35:g_buckets W2@38:g_count R1@59:g_count
// Request-latency histogram for a metrics exporter. Recorder threads bump a
// bucket under the histogram rwlock; the total sample count lives under its
// own mutex so health checks can read it without touching the histogram.
// The exporter snapshots the buckets and then the count, expecting the
// bucket sum to equal the count. Because the bucket and the count are
// changed (and read) in separate critical sections, the exporter can see a
// sample in the buckets that is not in the count yet (or the other way
// round) and publishes an inconsistent snapshot.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NBUCKETS 4
#define RECORDERS 2
#define SAMPLES 3

static pthread_rwlock_t g_hist_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t g_count_lock = PTHREAD_MUTEX_INITIALIZER;
static long g_buckets[NBUCKETS];
static long g_count;
static int g_export_ok = 1;

static int bucket_for(int usec)      /* <100us, <1ms, <10ms, slower */
{
    return usec < 100 ? 0 : usec < 1000 ? 1 : usec < 10000 ? 2 : 3;
}

static void record(int usec)
{
    int b = bucket_for(usec);
    pthread_rwlock_wrlock(&g_hist_lock);
    g_buckets[b]++;
    pthread_rwlock_unlock(&g_hist_lock);
    pthread_mutex_lock(&g_count_lock);
    g_count++;
    pthread_mutex_unlock(&g_count_lock);
}

static void *recorder(void *arg)
{
    int base = *(int *)arg;
    for (int i = 0; i < SAMPLES; i++)
        record(base * (i + 1));
    return NULL;
}

static void *exporter(void *arg)
{
    (void)arg;
    long sum = 0, count;
    pthread_rwlock_rdlock(&g_hist_lock);
    for (int b = 0; b < NBUCKETS; b++)
        sum += g_buckets[b];
    pthread_rwlock_unlock(&g_hist_lock);
    pthread_mutex_lock(&g_count_lock);
    count = g_count;
    pthread_mutex_unlock(&g_count_lock);
    printf("export: samples=%ld bucket_sum=%ld\n", count, sum);
    if (sum != count)
        g_export_ok = 0;
    return NULL;
}

int main(void)
{
    pthread_t rec[RECORDERS], exp;
    int base[RECORDERS] = {50, 700};
    for (int i = 0; i < RECORDERS; i++)
        pthread_create(&rec[i], NULL, recorder, &base[i]);
    pthread_create(&exp, NULL, exporter, NULL);
    for (int i = 0; i < RECORDERS; i++)
        pthread_join(rec[i], NULL);
    pthread_join(exp, NULL);
    assert(g_count == RECORDERS * SAMPLES);
    assert(g_export_ok && "exporter published an inconsistent snapshot");
    return 0;
}

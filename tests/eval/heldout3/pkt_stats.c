// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_bytes_total R1@37 W2@37 W1@37
// Packet accounting: two RX workers account each packet to its flow under the flow-table lock,
// then add its length to the interface byte total outside the lock ("it is only a counter").
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NFLOWS 4
#define PKTS_PER_WORKER 3

struct flow {
    unsigned long packets;
    unsigned long bytes;
};

static pthread_mutex_t g_flow_lock = PTHREAD_MUTEX_INITIALIZER;
static struct flow g_flows[NFLOWS];
static unsigned long g_bytes_total;
static int g_last_worker; /* debug aid: which worker accounted last */

static const unsigned g_sizes[2][PKTS_PER_WORKER] = {
    {64, 1500, 576},
    {128, 40, 9000},
};

static void *rx_worker(void *arg)
{
    int id = *(int *)arg;
    for (int i = 0; i < PKTS_PER_WORKER; i++) {
        unsigned len = g_sizes[id][i];
        unsigned flow = (len / 64 + (unsigned)id) % NFLOWS;
        pthread_mutex_lock(&g_flow_lock);
        g_flows[flow].packets++;
        g_flows[flow].bytes += len;
        pthread_mutex_unlock(&g_flow_lock);
        g_bytes_total += len;
        g_last_worker = id;
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, rx_worker, &ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);

    unsigned long per_flow = 0, expected = 0;
    for (int f = 0; f < NFLOWS; f++)
        per_flow += g_flows[f].bytes;
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < PKTS_PER_WORKER; i++)
            expected += g_sizes[w][i];
    printf("%lu bytes (flows %lu), last worker %d\n", g_bytes_total, per_flow, g_last_worker);
    assert(per_flow == expected);
    assert(g_bytes_total == expected);
    return 0;
}

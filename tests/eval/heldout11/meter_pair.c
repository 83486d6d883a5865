// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause total_packets,total_bytes W1@35:total_packets R2@69:total_packets R2@70:total_bytes W1@41:total_bytes
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define NFRAMES 2000
#define HDR_LEN 14
#define FRAME_LEN 128
#define MAX_REPORTS 4

struct frame {
    unsigned char bytes[FRAME_LEN];
    unsigned short len;
};

pthread_mutex_t g_meter_lock = PTHREAD_MUTEX_INITIALIZER;
unsigned long total_packets;
unsigned long total_bytes;
int g_rx_done;

static size_t frame_payload_len(const struct frame *f)
{
    if (f->len < HDR_LEN)
        return 0;
    return (size_t)f->len - HDR_LEN;
}

static void meter_rx(const struct frame *f)
{
    size_t n;

    pthread_mutex_lock(&g_meter_lock);
    total_packets++;
    pthread_mutex_unlock(&g_meter_lock);

    n = frame_payload_len(f);

    pthread_mutex_lock(&g_meter_lock);
    total_bytes += n;
    pthread_mutex_unlock(&g_meter_lock);
}

static void *rx_thread(void *arg)
{
    struct frame f;

    (void)arg;
    memset(&f, 0, sizeof(f));
    f.len = FRAME_LEN;
    for (int i = 0; i < NFRAMES; i++) {
        f.bytes[i % FRAME_LEN] = (unsigned char)i;
        meter_rx(&f);
    }
    __atomic_store_n(&g_rx_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *report_thread(void *arg)
{
    unsigned long pk, by;
    int reports = 0;

    (void)arg;
    while (reports < MAX_REPORTS &&
           !__atomic_load_n(&g_rx_done, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&g_meter_lock);
        pk = total_packets;
        by = total_bytes;
        pthread_mutex_unlock(&g_meter_lock);
        assert(by == pk * (FRAME_LEN - HDR_LEN));
        reports++;
    }
    return (void *)(long)reports;
}

int main(void)
{
    pthread_t rx, rep;
    void *nrep;

    if (pthread_create(&rx, NULL, rx_thread, NULL) != 0 ||
        pthread_create(&rep, NULL, report_thread, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(rx, NULL);
    pthread_join(rep, &nrep);

    assert(total_packets == NFRAMES);
    assert(total_bytes == (unsigned long)NFRAMES * (FRAME_LEN - HDR_LEN));
    printf("%lu packets, %lu bytes, %ld reports\n", total_packets, total_bytes,
           (long)nrep);
    return 0;
}

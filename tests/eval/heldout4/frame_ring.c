// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause g_ring,g_free post1@51:g_free semwait2@26:g_free W2@28:g_ring R1@52:g_ring
/* Frame ring between the camera capture thread and the encoder thread:
 * g_free counts empty slots, g_ready filled ones. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define SLOTS 4
#define FRAMES 10

struct frame {
    int seq;
    unsigned char luma[16];
};

static struct frame g_ring[SLOTS];
static sem_t g_free, g_ready;
static unsigned long g_encoded_bytes;

static void *capture(void *arg)
{
    (void)arg;
    for (int seq = 1; seq <= FRAMES; seq++) {
        sem_wait(&g_free);
        struct frame *f = &g_ring[seq % SLOTS];
        f->seq = seq;
        for (int i = 0; i < 16; i++)
            f->luma[i] = (unsigned char)(seq * 16 + i);
        sem_post(&g_ready);
    }
    return NULL;
}

static unsigned encode(const struct frame *f)
{
    unsigned bytes = 0;
    for (int i = 0; i < 16; i++)
        bytes += f->luma[i] > 128 ? 2 : 1;
    return bytes;
}

static void *encoder(void *arg)
{
    (void)arg;
    for (int expect = 1; expect <= FRAMES; expect++) {
        sem_wait(&g_ready);
        struct frame *f = &g_ring[expect % SLOTS];
        /* The slot is ours now: hand it back early so capture never stalls. */
        sem_post(&g_free);
        int seq = f->seq;
        assert(seq == expect && "frame overwritten before it was encoded");
        g_encoded_bytes += encode(f);
    }
    return NULL;
}

int main(void)
{
    pthread_t cap, enc;
    sem_init(&g_free, 0, SLOTS);
    sem_init(&g_ready, 0, 0);
    pthread_create(&cap, NULL, capture, NULL);
    pthread_create(&enc, NULL, encoder, NULL);
    pthread_join(cap, NULL);
    pthread_join(enc, NULL);
    printf("encoded %d frames, %lu bytes\n", FRAMES, g_encoded_bytes);
    return 0;
}

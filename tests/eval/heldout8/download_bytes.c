// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_bytes_done R1@46 W2@61 W1@46
// ctrlsched-truth: cause g_bytes_done R1@61 W2@46 W1@61
/*
 * Chunked download bookkeeping.  A fetcher thread downloads the chunks of a
 * file and a retry thread re-downloads the chunks whose checksum was bad;
 * both add what they received to the shared byte counter g_bytes_done.
 *
 * Bug: the fetcher updates g_bytes_done under conn_lock, the retry path
 * under retry_lock.  The two read-modify-writes are not mutually exclusive,
 * so one addition can be lost and main's final total check fails.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CHUNKS    4
#define CHUNK_LEN 2048

static const int bad_chunks[] = { 1, 3 };
#define RETRIES ((int)(sizeof bad_chunks / sizeof bad_chunks[0]))
#define EXPECTED_BYTES ((unsigned long)(CHUNKS + RETRIES) * CHUNK_LEN)

static pthread_mutex_t conn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t retry_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long g_bytes_done;        /* total payload received */
static unsigned g_chunks_ok;              /* guarded by conn_lock */
static unsigned g_chunks_retried;         /* guarded by retry_lock */

/* Stand-in for the network: fill the buffer with the chunk's payload. */
static size_t receive_chunk(int idx, unsigned char *buf, size_t cap)
{
    for (size_t i = 0; i < cap; i++)
        buf[i] = (unsigned char)(idx * 31 + i);
    return cap;
}

static void *fetcher(void *arg)
{
    unsigned char buf[CHUNK_LEN];
    (void)arg;
    for (int i = 0; i < CHUNKS; i++) {
        size_t n = receive_chunk(i, buf, sizeof buf);
        pthread_mutex_lock(&conn_lock);
        g_chunks_ok++;
        if ((g_bytes_done += n) == EXPECTED_BYTES)
            puts("download complete");
        pthread_mutex_unlock(&conn_lock);
    }
    return NULL;
}

static void *retrier(void *arg)
{
    unsigned char buf[CHUNK_LEN];
    (void)arg;
    for (int i = 0; i < RETRIES; i++) {
        size_t n = receive_chunk(bad_chunks[i], buf, sizeof buf);
        pthread_mutex_lock(&retry_lock);
        g_chunks_retried++;
        if ((g_bytes_done += n) == EXPECTED_BYTES)
            puts("download complete");
        pthread_mutex_unlock(&retry_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t f, r;
    pthread_create(&f, NULL, fetcher, NULL);
    pthread_create(&r, NULL, retrier, NULL);
    pthread_join(f, NULL);
    pthread_join(r, NULL);

    printf("received %lu bytes in %u+%u chunks\n", g_bytes_done,
           g_chunks_ok, g_chunks_retried);
    assert(g_bytes_done == EXPECTED_BYTES);
    return 0;
}

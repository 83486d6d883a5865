// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_primary,g_backup W1@45:g_primary R2@116:g_primary R2@117:g_backup W1@45:g_backup
/*
 * mirror_sync.c - a mirrored append-only journal.
 *
 * Every record goes to the primary copy first and then to the backup
 * copy.  Each copy has its own lock, so that a slow backup device never
 * holds up readers of the primary.  A scrubber thread wakes up now and
 * then and checks that the two copies agree on how much has been written.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define JOURNAL_BYTES 65536
#define NRECORDS      300

struct journal_copy {
    pthread_mutex_t lock;
    size_t          end;              /* bytes written so far */
    unsigned        sum;              /* running checksum of data[0..end) */
    unsigned char   data[JOURNAL_BYTES];
};

static struct journal_copy g_primary = { .lock = PTHREAD_MUTEX_INITIALIZER };
static struct journal_copy g_backup  = { .lock = PTHREAD_MUTEX_INITIALIZER };
static atomic_bool g_writer_done;

static unsigned checksum_update(unsigned sum, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sum = sum * 31 + p[i];
    return sum;
}

static void copy_append(struct journal_copy *c, const void *rec, size_t len)
{
    pthread_mutex_lock(&c->lock);
    memcpy(c->data + c->end, rec, len);
    c->sum = checksum_update(c->sum, rec, len);
    c->end += len;
    pthread_mutex_unlock(&c->lock);
}

static void journal_append(const void *rec, size_t len)
{
    copy_append(&g_primary, rec, len);
    copy_append(&g_backup, rec, len);
}

/*
 * Stand-in for reading the sensor: a filtered value of a noisy
 * synthetic signal, 4096 raw samples per reading.
 */
static unsigned read_sensor(unsigned seq)
{
    unsigned x = seq * 2654435761u + 1;
    unsigned acc = 0;
    for (int i = 0; i < 4096; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        acc = acc - (acc >> 3) + (x & 0x3ff);
    }
    return acc >> 3;
}

static size_t put_uint(char *buf, size_t n, size_t cap, unsigned v)
{
    char digits[12];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && nd < (int)sizeof(digits));
    while (nd > 0 && n < cap)
        buf[n++] = digits[--nd];
    return n;
}

/* Build a small text record: "<seq> <reading>\n". */
static size_t format_record(char *buf, size_t cap, unsigned seq, unsigned reading)
{
    size_t n = put_uint(buf, 0, cap, seq);
    if (n < cap)
        buf[n++] = ' ';
    n = put_uint(buf, n, cap, reading);
    if (n < cap)
        buf[n++] = '\n';
    return n;
}

static void *writer(void *arg)
{
    (void)arg;
    char rec[32];
    for (unsigned seq = 0; seq < NRECORDS; seq++) {
        size_t len = format_record(rec, sizeof(rec), seq, read_sensor(seq));
        journal_append(rec, len);
    }
    atomic_store(&g_writer_done, true);
    return NULL;
}

static void *scrubber(void *arg)
{
    (void)arg;
    unsigned passes = 0;
    while (!atomic_load(&g_writer_done)) {
        pthread_mutex_lock(&g_primary.lock);
        pthread_mutex_lock(&g_backup.lock);
        size_t primary_end = g_primary.end;
        size_t backup_end = g_backup.end;
        pthread_mutex_unlock(&g_backup.lock);
        pthread_mutex_unlock(&g_primary.lock);

        assert(primary_end == backup_end && "journal copies diverged");
        passes++;
        usleep(500);
    }
    return (void *)(unsigned long)passes;
}

int main(void)
{
    pthread_t w, s;
    void *passes;

    pthread_create(&s, NULL, scrubber, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(w, NULL);
    pthread_join(s, &passes);

    assert(g_primary.end == g_backup.end);
    assert(g_primary.sum == g_backup.sum);
    printf("journal: %zu bytes, checksum %08x, %lu scrub passes\n",
           g_primary.end, g_primary.sum, (unsigned long)passes);
    return 0;
}

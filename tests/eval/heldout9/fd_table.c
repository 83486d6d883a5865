// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_fds R1@33 R2@33 W1@34 W2@34
// ctrlsched-truth: cause g_fds R1@33 R2@33 W2@34 W1@34
/*
 * fd_table.c - a small lock-free descriptor table.
 *
 * A slot is owned by whoever stored their client id into its owner field;
 * 0 means the slot is free.  Clients open a descriptor, stream some data
 * through it and close it again, many times over.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define FD_SLOTS  8
#define NCLIENTS  3
#define ROUNDS    50

struct fd_entry {
    atomic_int owner;          /* 0 = free, otherwise the client id */
    int        flags;
    long       offset;
};

static struct fd_entry g_fds[FD_SLOTS];
static atomic_long g_bytes_total;

static int fd_open(int client, int flags)
{
    for (int fd = 0; fd < FD_SLOTS; fd++) {
        if (atomic_load(&g_fds[fd].owner) == 0) {
            atomic_store(&g_fds[fd].owner, client);
            g_fds[fd].flags = flags;
            g_fds[fd].offset = 0;
            return fd;
        }
    }
    return -1;
}

static void fd_close(int fd, int client)
{
    assert(atomic_load(&g_fds[fd].owner) == client && "closing a descriptor we do not own");
    g_fds[fd].flags = 0;
    atomic_store(&g_fds[fd].owner, 0);
}

/* Pretend to read len bytes through fd: checksum a pattern buffer. */
static unsigned fd_read(int fd, unsigned char *buf, size_t len)
{
    unsigned sum = 0;
    for (size_t i = 0; i < len; i++) {
        buf[i] = (unsigned char)(g_fds[fd].offset + (long)i);
        sum = sum * 33 + buf[i];
    }
    g_fds[fd].offset += (long)len;
    return sum;
}

static void *client(void *arg)
{
    int id = (int)(long)arg;
    unsigned char buf[512];
    unsigned sum = 0;

    for (int round = 0; round < ROUNDS; round++) {
        int fd = fd_open(id, 0x1);
        assert(fd >= 0);
        for (int chunk = 0; chunk < 8; chunk++)
            sum ^= fd_read(fd, buf, sizeof(buf));
        fd_close(fd, id);
        atomic_fetch_add(&g_bytes_total, 8 * (long)sizeof(buf));
    }
    return (void *)(unsigned long)sum;
}

int main(void)
{
    pthread_t t[NCLIENTS];

    for (long i = 0; i < NCLIENTS; i++)
        pthread_create(&t[i], NULL, client, (void *)(i + 1));
    for (int i = 0; i < NCLIENTS; i++)
        pthread_join(t[i], NULL);

    for (int fd = 0; fd < FD_SLOTS; fd++)
        assert(atomic_load(&g_fds[fd].owner) == 0);
    printf("%ld bytes read\n", atomic_load(&g_bytes_total));
    return 0;
}

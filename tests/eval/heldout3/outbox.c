// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_outbox R1@24 W2@29 R1@27
// Outgoing message buffer with a fixed capacity, shared by sender threads. outbox_put() rejects
// a message early when it does not fit, before taking the lock (a cheap check on the hot path),
// then appends under the lock. Two senders can both pass the check for the last free room.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define OUTBOX_CAP 48

struct outbox {
    size_t used;
    pthread_mutex_t lock;
    char buf[OUTBOX_CAP];
};

static struct outbox g_outbox = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int outbox_put(struct outbox *ob, const char *msg)
{
    size_t n = strlen(msg);
    if (ob->used + n > OUTBOX_CAP)
        return -1; /* full: the caller retries after the next flush */
    pthread_mutex_lock(&ob->lock);
    assert(ob->used + n <= OUTBOX_CAP);
    memcpy(ob->buf + ob->used, msg, n);
    ob->used += n;
    pthread_mutex_unlock(&ob->lock);
    return 0;
}

static void *sender(void *arg)
{
    const char *msg = arg;
    if (outbox_put(&g_outbox, msg) != 0)
        printf("outbox full, deferring \"%.10s...\"\n", msg);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    static const char *msgs[2] = {"PRIVMSG #ops :disk 91%\r\n", "PRIVMSG #ops :load 7.2\r\n"};

    outbox_put(&g_outbox, "NICK monitor\r\n");
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, sender, (void *)msgs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("outbox holds %zu bytes\n", g_outbox.used);
    return 0;
}

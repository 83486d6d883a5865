// ctrlsched-truth: class=double_checked_locking fails=exit
// ctrlsched-truth: cause g_codecs W1@41 R2@33
// ctrlsched-truth: cause * R1@54 W2@28
// Codec registry built lazily with double-checked locking on an atomic pointer; the initializer
// publishes the table before registering the codecs, so a lookup can find the table, not the codec.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct codec {
    const char *name;
    int payload_type;
};

struct codec_table {
    int n;
    struct codec entries[8];
};

static pthread_mutex_t g_codecs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct codec_table *_Atomic g_codecs;

static void register_codec(struct codec_table *t, const char *name, int pt)
{
    t->entries[t->n] = (struct codec){name, pt};
    t->n++;
}

static struct codec_table *codecs(void)
{
    struct codec_table *t = atomic_load_explicit(&g_codecs, memory_order_acquire);
    if (t == NULL) {
        pthread_mutex_lock(&g_codecs_lock);
        t = atomic_load_explicit(&g_codecs, memory_order_relaxed);
        if (t == NULL) {
            t = calloc(1, sizeof *t);
            if (t == NULL)
                abort();
            atomic_store_explicit(&g_codecs, t, memory_order_release);
            register_codec(t, "PCMU", 0);
            register_codec(t, "G722", 9);
            register_codec(t, "opus", 111);
        }
        pthread_mutex_unlock(&g_codecs_lock);
    }
    return t;
}

static const struct codec *codec_find(const char *name)
{
    struct codec_table *t = codecs();
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->entries[i].name, name) == 0)
            return &t->entries[i];
    return NULL;
}

static void *decoder(void *arg)
{
    const char *want = arg;
    const struct codec *c = codec_find(want);
    if (c == NULL) {
        fprintf(stderr, "no decoder for %s\n", want);
        exit(3);
    }
    printf("%s -> payload type %d\n", c->name, c->payload_type);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    pthread_create(&t[0], NULL, decoder, "opus");
    pthread_create(&t[1], NULL, decoder, "opus");
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    return 0;
}

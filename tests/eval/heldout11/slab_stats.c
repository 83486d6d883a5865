// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_slab_allocs R1@45 W2@45 W1@45
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBJ_SIZE 64
#define ITERS 50

struct slab_obj {
    struct slab_obj *next;
    unsigned long serial;
    unsigned char payload[OBJ_SIZE];
};

struct slab_cache {
    pthread_mutex_t lock;
    struct slab_obj *free_list;
    unsigned nfree;
};

struct slab_cache g_cache = { .lock = PTHREAD_MUTEX_INITIALIZER };
unsigned long g_slab_allocs;
unsigned long g_slab_frees;

static struct slab_obj *slab_alloc(struct slab_cache *c)
{
    struct slab_obj *obj;

    pthread_mutex_lock(&c->lock);
    obj = c->free_list;
    if (obj) {
        c->free_list = obj->next;
        c->nfree--;
    }
    pthread_mutex_unlock(&c->lock);
    if (!obj) {
        obj = malloc(sizeof(*obj));
        if (!obj)
            abort();
    }
    obj->next = NULL;
    obj->serial = ++g_slab_allocs;
    return obj;
}

static void slab_free(struct slab_cache *c, struct slab_obj *obj)
{
    pthread_mutex_lock(&c->lock);
    obj->next = c->free_list;
    c->free_list = obj;
    c->nfree++;
    g_slab_frees++;
    pthread_mutex_unlock(&c->lock);
}

static void *alloc_worker(void *arg)
{
    unsigned char tag = (unsigned char)(unsigned long)arg;
    struct slab_obj *held[4] = { 0 };

    for (int i = 0; i < ITERS; i++) {
        int k = i % 4;
        if (held[k])
            slab_free(&g_cache, held[k]);
        held[k] = slab_alloc(&g_cache);
        memset(held[k]->payload, tag, OBJ_SIZE);
    }
    for (int k = 0; k < 4; k++)
        if (held[k])
            slab_free(&g_cache, held[k]);
    return NULL;
}

int main(void)
{
    pthread_t t[2];

    for (long i = 0; i < 2; i++) {
        if (pthread_create(&t[i], NULL, alloc_worker, (void *)(i + 1)) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);

    printf("allocs %lu frees %lu cached %u\n", g_slab_allocs, g_slab_frees,
           g_cache.nfree);
    assert(g_slab_allocs == 2 * ITERS);
    assert(g_slab_frees == g_slab_allocs);
    while (g_cache.free_list) {
        struct slab_obj *n = g_cache.free_list->next;
        free(g_cache.free_list);
        g_cache.free_list = n;
    }
    return 0;
}

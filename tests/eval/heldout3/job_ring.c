// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause g_ring R1@46 W2@30
// ctrlsched-truth: cause g_items,g_ring post1@31:g_items semwait2@45:g_items R2@46:g_ring W3@30:g_ring
// Bounded job ring with two producers and one consumer: a producer reserves a slot under the
// lock, fills it outside the lock, then posts the items semaphore; the consumer takes slots in
// order. The second producer can fill and post its slot before the first fills the earlier
// one, and the consumer, woken by that post, takes the earlier slot while it is still empty.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define RING 4

struct job {
    int id;
    int cost;
};

static pthread_mutex_t g_tail_lock = PTHREAD_MUTEX_INITIALIZER;
static struct job g_ring[RING];
static unsigned g_tail, g_head;
static sem_t g_items;

static void submit(int id, int cost)
{
    pthread_mutex_lock(&g_tail_lock);
    unsigned slot = g_tail++ % RING;
    pthread_mutex_unlock(&g_tail_lock);
    g_ring[slot] = (struct job){.id = id, .cost = cost};
    sem_post(&g_items);
}

static void *producer(void *arg)
{
    int id = (int)(long)arg;
    submit(id, 10 * id);
    return NULL;
}

static void *consumer(void *arg)
{
    long *total = arg;
    for (int n = 0; n < 2; n++) {
        sem_wait(&g_items);
        struct job j = g_ring[g_head % RING];
        assert(j.id != 0 && "consumed an empty slot");
        g_ring[g_head % RING] = (struct job){0, 0};
        g_head++;
        *total += j.cost;
    }
    return NULL;
}

int main(void)
{
    pthread_t c, p[2];
    long total = 0;
    sem_init(&g_items, 0, 0);
    pthread_create(&c, NULL, consumer, &total);
    for (long i = 0; i < 2; i++)
        pthread_create(&p[i], NULL, producer, (void *)(i + 1));
    for (int i = 0; i < 2; i++)
        pthread_join(p[i], NULL);
    pthread_join(c, NULL);
    printf("processed cost %ld\n", total);
    sem_destroy(&g_items);
    return 0;
}

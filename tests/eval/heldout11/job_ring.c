// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_slots R1@68 W2@56
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define RING_SLOTS 16
#define NJOBS 200

struct job {
    void (*run)(struct job *);
    int id;
    long result;
};

struct job *g_slots[RING_SLOTS];
unsigned g_head;
unsigned g_tail;
long g_sum;

static void job_square(struct job *j)
{
    j->result = (long)j->id * j->id;
}

static struct job *job_new(int id)
{
    struct job *j = calloc(1, sizeof(*j));
    if (!j)
        abort();
    j->id = id;
    j->run = job_square;
    return j;
}

static unsigned ring_reserve(void)
{
    unsigned t, h;

    for (;;) {
        t = __atomic_load_n(&g_tail, __ATOMIC_RELAXED);
        h = __atomic_load_n(&g_head, __ATOMIC_ACQUIRE);
        if (t - h < RING_SLOTS)
            break;
    }
    __atomic_store_n(&g_tail, t + 1, __ATOMIC_RELEASE);
    return t % RING_SLOTS;
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < NJOBS; i++) {
        unsigned slot = ring_reserve();
        g_slots[slot] = job_new(i);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int done = 0; done < NJOBS; done++) {
        unsigned h = __atomic_load_n(&g_head, __ATOMIC_RELAXED);
        while (__atomic_load_n(&g_tail, __ATOMIC_ACQUIRE) == h)
            ;
        struct job *j = g_slots[h % RING_SLOTS];
        j->run(j);
        g_sum += j->result;
        g_slots[h % RING_SLOTS] = NULL;
        free(j);
        __atomic_store_n(&g_head, h + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

int main(void)
{
    pthread_t prod, cons;
    long expect = 0;

    for (int i = 0; i < NJOBS; i++)
        expect += (long)i * i;

    if (pthread_create(&cons, NULL, consumer, NULL) != 0 ||
        pthread_create(&prod, NULL, producer, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(prod, NULL);
    pthread_join(cons, NULL);

    assert(g_sum == expect);
    printf("ran %d jobs, sum %ld\n", NJOBS, g_sum);
    return 0;
}

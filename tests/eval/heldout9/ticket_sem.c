// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_ring R1@92 W2@76
/*
 * ticket_sem.c - a bounded ticket dispenser.
 *
 * The dispenser thread issues numbered tickets into a small ring and the
 * counter thread serves them in order, adding up the fees it collects.
 * Two counting semaphores keep track of the free and the filled slots,
 * the usual bounded-buffer arrangement.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define RING_SLOTS 4
#define NTICKETS   32

struct ticket {
    int  number;
    int  fee_cents;
    char window;                 /* 'A'..'C' */
};

static struct ticket *g_ring[RING_SLOTS];
static unsigned g_head;          /* next slot to fill, dispenser only */
static sem_t g_free;             /* slots the dispenser may fill */
static sem_t g_filled;           /* slots holding a ticket */
static long g_collected;         /* counter thread only */
static unsigned g_receipts;      /* xor of all receipt codes, counter only */

static struct ticket *make_ticket(int number)
{
    struct ticket *t = malloc(sizeof(*t));
    if (!t)
        abort();
    t->number = number;
    t->fee_cents = 150 + (number % 5) * 25;
    t->window = (char)('A' + number % 3);
    return t;
}

/*
 * The receipt code printed on the stub: a cheap keyed hash of the ticket,
 * stretched a little so that codes are not trivially guessable.
 */
static unsigned receipt_code(const struct ticket *t)
{
    unsigned h = 2166136261u ^ (unsigned)t->number;
    for (int round = 0; round < 2000; round++) {
        h ^= (unsigned)t->fee_cents + (unsigned)t->window + (unsigned)round;
        h *= 16777619u;
        h ^= h >> 13;
    }
    return h;
}

/* Take the next slot of the ring and let the counter know about it. */
static unsigned claim_slot(void)
{
    unsigned slot = g_head % RING_SLOTS;
    g_head++;
    sem_post(&g_filled);
    return slot;
}

static void *dispenser(void *arg)
{
    (void)arg;
    for (int i = 1; i <= NTICKETS; i++) {
        struct ticket *t = make_ticket(i);

        sem_wait(&g_free);
        unsigned slot = claim_slot();
        g_ring[slot] = t;
    }
    return NULL;
}

static void *counter(void *arg)
{
    (void)arg;
    unsigned tail = 0;
    int served = 0;
    while (served < NTICKETS) {
        if (sem_trywait(&g_filled) != 0) {
            /* Nobody waiting: catch up on paperwork and look again. */
            usleep(50);
            continue;
        }
        struct ticket *t = g_ring[tail];
        g_ring[tail] = NULL;
        tail = (tail + 1) % RING_SLOTS;
        sem_post(&g_free);

        g_collected += t->fee_cents;
        g_receipts ^= receipt_code(t);
        free(t);
        served++;
    }
    return NULL;
}

int main(void)
{
    pthread_t d, c;

    sem_init(&g_free, 0, RING_SLOTS);
    sem_init(&g_filled, 0, 0);

    pthread_create(&d, NULL, dispenser, NULL);
    pthread_create(&c, NULL, counter, NULL);
    pthread_join(d, NULL);
    pthread_join(c, NULL);

    sem_destroy(&g_filled);
    sem_destroy(&g_free);
    printf("served %d tickets, collected %ld cents, receipts %08x\n",
           NTICKETS, g_collected, g_receipts);
    return 0;
}

// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_wheel R1@54 W2@35
/*
 * Hashed timer wheel driven by a clock thread. The clock source posts one semaphore unit per
 * tick; the wheel thread fires the timers of the current slot, then waits for the next tick.
 * The wheel thread is started first so that no tick of the clock is missed during startup.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define WHEEL_SLOTS 8
#define TICKS 3

struct timer {
    struct timer *next;
    void (*fire)(struct timer *);
    int fired;
};

struct timer_wheel {
    pthread_mutex_t lock;
    struct timer **slots;
    unsigned cursor;
};

static struct timer_wheel g_wheel = { .lock = PTHREAD_MUTEX_INITIALIZER };
static sem_t g_tick;

static void wheel_init(struct timer_wheel *w)
{
    struct timer **slots = calloc(WHEEL_SLOTS, sizeof *slots);
    pthread_mutex_lock(&w->lock);
    w->slots = slots;
    w->cursor = 0;
    pthread_mutex_unlock(&w->lock);
}

static void wheel_add(struct timer_wheel *w, struct timer *t, unsigned ticks_from_now)
{
    pthread_mutex_lock(&w->lock);
    unsigned slot = (w->cursor + ticks_from_now) % WHEEL_SLOTS;
    t->next = w->slots[slot];
    w->slots[slot] = t;
    pthread_mutex_unlock(&w->lock);
}

static void *wheel_thread(void *arg)
{
    (void)arg;
    for (int tick = 0; tick < TICKS; tick++) {
        pthread_mutex_lock(&g_wheel.lock);
        struct timer **slots = g_wheel.slots;
        struct timer *due = slots[g_wheel.cursor];
        slots[g_wheel.cursor] = NULL;
        g_wheel.cursor = (g_wheel.cursor + 1) % WHEEL_SLOTS;
        pthread_mutex_unlock(&g_wheel.lock);

        while (due != NULL) {
            struct timer *next = due->next;
            due->fire(due);
            due = next;
        }
        sem_wait(&g_tick);
    }
    return NULL;
}

static void mark_fired(struct timer *t) { t->fired++; }

int main(void)
{
    pthread_t wheel;
    struct timer keepalive = { NULL, mark_fired, 0 };

    sem_init(&g_tick, 0, 0);
    pthread_create(&wheel, NULL, wheel_thread, NULL);
    wheel_init(&g_wheel);
    wheel_add(&g_wheel, &keepalive, 1);

    for (int tick = 0; tick < TICKS; tick++)
        sem_post(&g_tick);
    pthread_join(wheel, NULL);
    free(g_wheel.slots);
    printf("keepalive fired %d time(s)\n", keepalive.fired);
    return keepalive.fired == 1 ? 0 : 1;
}

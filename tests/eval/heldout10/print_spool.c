// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause spool_queue,lp0,page_ledger lock1@97:spool_queue lock2@143:lp0 lock3@171:page_ledger lock1@81:lp0 lock2@134:page_ledger lock3@176:spool_queue
// ctrlsched-truth: cause spool_queue,lp0,page_ledger lock1@143:lp0 lock2@171:page_ledger lock3@97:spool_queue lock1@134:page_ledger lock2@176:spool_queue lock3@81:lp0
// ctrlsched-truth: cause spool_queue,lp0,page_ledger lock1@171:page_ledger lock2@97:spool_queue lock3@143:lp0 lock1@176:spool_queue lock2@81:lp0 lock3@134:page_ledger
/*
 * print_spool.c - a small print spooler for one printer.
 *
 * Three parts, each on its own thread:
 *   spooler    accepts jobs into the spool queue and hands the oldest one to
 *              the printer whenever the printer is idle;
 *   renderer   drives the print engine one page per tick and, when a job's
 *              last page is out, charges the job's owner in the page ledger;
 *   accounting closes billing periods on the page ledger, noting how many
 *              jobs were still waiting in the spool at the close.
 *
 * The queue, the printer and the ledger each have their own mutex.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define QUEUE_CAP     16
#define NUM_OWNERS    4
#define BAND_BYTES    256
#define SPOOL_PASSES  10
#define ENGINE_TICKS  24
#define PERIODS       3

struct print_job {
    unsigned id;
    unsigned owner;
    unsigned pages;
};

struct job_queue {
    pthread_mutex_t lock;
    struct print_job jobs[QUEUE_CAP];
    unsigned head;            /* next job to dispatch */
    unsigned tail;            /* next free slot */
    unsigned rejected;        /* submissions dropped because the queue was full */
};

struct printer {
    pthread_mutex_t lock;
    int busy;
    struct print_job current;
    unsigned pages_done;      /* of the current job */
    unsigned total_pages;
    uint32_t band_checksum;
    unsigned char band[BAND_BYTES];
};

struct ledger {
    pthread_mutex_t lock;
    unsigned long charged_pages[NUM_OWNERS];
    unsigned billed_jobs;
    unsigned periods_closed;
    unsigned long last_period_pages;
    unsigned carried_jobs;    /* queued, not yet printed, at the last close */
};

static struct job_queue spool_queue = { .lock = PTHREAD_MUTEX_INITIALIZER };
static struct printer lp0 = { .lock = PTHREAD_MUTEX_INITIALIZER };
static struct ledger page_ledger = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const struct print_job incoming[] = {
    { 101, 0, 2 }, { 102, 2, 1 }, { 103, 1, 3 },
    { 104, 0, 1 }, { 105, 3, 2 }, { 106, 2, 1 },
};
#define NUM_INCOMING (sizeof incoming / sizeof incoming[0])

/* ---- spooler ---------------------------------------------------------- */

/* Start the oldest queued job if the printer is free.  Queue lock held. */
static void dispatch_next_locked(void)
{
    if (spool_queue.head == spool_queue.tail)
        return;
    pthread_mutex_lock(&lp0.lock);
    if (!lp0.busy) {
        lp0.current = spool_queue.jobs[spool_queue.head % QUEUE_CAP];
        lp0.pages_done = 0;
        lp0.busy = 1;
        spool_queue.head++;
    }
    pthread_mutex_unlock(&lp0.lock);
}

/*
 * One pass of the spooler: take in the next submitted job, if any, and keep
 * the printer fed.
 */
static void spooler_pass(const struct print_job *job)
{
    pthread_mutex_lock(&spool_queue.lock);
    if (job != NULL) {
        if (spool_queue.tail - spool_queue.head < QUEUE_CAP) {
            spool_queue.jobs[spool_queue.tail % QUEUE_CAP] = *job;
            spool_queue.tail++;
        } else {
            spool_queue.rejected++;
        }
    }
    dispatch_next_locked();
    pthread_mutex_unlock(&spool_queue.lock);
}

static void *spooler_main(void *arg)
{
    (void)arg;
    for (unsigned pass = 0; pass < SPOOL_PASSES; pass++)
        spooler_pass(pass < NUM_INCOMING ? &incoming[pass] : NULL);
    return NULL;
}

/* ---- renderer --------------------------------------------------------- */

static uint32_t rasterize_band(unsigned char *band, unsigned job_id, unsigned page)
{
    uint32_t h = 2166136261u ^ (job_id * 131u + page);

    for (unsigned i = 0; i < BAND_BYTES; i++) {
        band[i] = (unsigned char)((i * 7u + page * 13u + job_id) & 0xff);
        h = (h ^ band[i]) * 16777619u;
    }
    return h;
}

/* Bill a finished job to its owner. */
static void charge_job(const struct print_job *job)
{
    pthread_mutex_lock(&page_ledger.lock);
    page_ledger.charged_pages[job->owner] += job->pages;
    page_ledger.billed_jobs++;
    pthread_mutex_unlock(&page_ledger.lock);
}

/* One engine tick: print one page of the current job, if there is one. */
static void printer_tick(void)
{
    pthread_mutex_lock(&lp0.lock);
    if (lp0.busy) {
        lp0.band_checksum ^= rasterize_band(lp0.band, lp0.current.id,
                                            lp0.pages_done);
        lp0.pages_done++;
        lp0.total_pages++;
        if (lp0.pages_done == lp0.current.pages) {
            charge_job(&lp0.current);
            lp0.busy = 0;
        }
    }
    pthread_mutex_unlock(&lp0.lock);
}

static void *renderer_main(void *arg)
{
    (void)arg;
    for (unsigned t = 0; t < ENGINE_TICKS; t++)
        printer_tick();
    return NULL;
}

/* ---- accounting ------------------------------------------------------- */

static void ledger_close_period(void)
{
    unsigned long pages = 0;

    pthread_mutex_lock(&page_ledger.lock);
    for (unsigned o = 0; o < NUM_OWNERS; o++)
        pages += page_ledger.charged_pages[o];

    /* Jobs still sitting in the spool roll over into the next period. */
    pthread_mutex_lock(&spool_queue.lock);
    page_ledger.carried_jobs = spool_queue.tail - spool_queue.head;
    pthread_mutex_unlock(&spool_queue.lock);

    page_ledger.last_period_pages = pages;
    page_ledger.periods_closed++;
    pthread_mutex_unlock(&page_ledger.lock);
}

static void *accounting_main(void *arg)
{
    (void)arg;
    for (unsigned p = 0; p < PERIODS; p++)
        ledger_close_period();
    return NULL;
}

int main(void)
{
    pthread_t spooler, renderer, accounting;

    if (pthread_create(&spooler, NULL, spooler_main, NULL) != 0 ||
        pthread_create(&renderer, NULL, renderer_main, NULL) != 0 ||
        pthread_create(&accounting, NULL, accounting_main, NULL) != 0) {
        perror("pthread_create");
        return EXIT_FAILURE;
    }
    pthread_join(spooler, NULL);
    pthread_join(renderer, NULL);
    pthread_join(accounting, NULL);

    /* Every accepted job is either billed, on the printer, or still queued. */
    unsigned queued = spool_queue.tail - spool_queue.head;
    assert(page_ledger.billed_jobs + (unsigned)lp0.busy + queued
           == NUM_INCOMING - spool_queue.rejected);
    assert(page_ledger.periods_closed == PERIODS);

    printf("printed %u pages, billed %u jobs, %u queued, %u on printer\n",
           lp0.total_pages, page_ledger.billed_jobs, queued, lp0.busy);
    return 0;
}

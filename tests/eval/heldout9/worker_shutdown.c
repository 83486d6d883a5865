// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_stopping,g_queue_cv R1@51:g_stopping W2@96:g_stopping signal2@97:g_queue_cv wait1@52:g_queue_cv
/*
 * worker_shutdown.c - a fixed-size worker pool with a FIFO job queue.
 *
 * pool_submit() queues a job and wakes one worker.  pool_shutdown() asks
 * the workers to finish whatever is still queued and then exit, and
 * joins them.
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define NWORKERS 3
#define NJOBS    48

struct job {
    struct job *next;
    unsigned    seed;
};

static pthread_mutex_t g_queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  g_queue_cv   = PTHREAD_COND_INITIALIZER;
static struct job     *g_queue_head;
static struct job     *g_queue_tail;
static bool            g_stopping;
static unsigned long   g_checksum;     /* protected by g_queue_lock */
static unsigned        g_jobs_done;    /* protected by g_queue_lock */

/* The "work": a few rounds of a 32-bit mixing function. */
static unsigned run_job(const struct job *j)
{
    unsigned x = j->seed;
    for (int i = 0; i < 3000; i++) {
        x ^= x >> 16;
        x *= 0x7feb352du;
        x ^= x >> 15;
        x *= 0x846ca68bu;
        x ^= x >> 16;
    }
    return x;
}

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&g_queue_lock);
        while (g_queue_head == NULL && !g_stopping)
            pthread_cond_wait(&g_queue_cv, &g_queue_lock);
        struct job *j = g_queue_head;
        if (j == NULL) {
            /* Shutting down and the queue is drained. */
            pthread_mutex_unlock(&g_queue_lock);
            break;
        }
        g_queue_head = j->next;
        if (g_queue_head == NULL)
            g_queue_tail = NULL;
        pthread_mutex_unlock(&g_queue_lock);

        unsigned r = run_job(j);
        free(j);

        pthread_mutex_lock(&g_queue_lock);
        g_checksum += r;
        g_jobs_done++;
        pthread_mutex_unlock(&g_queue_lock);
    }
    return NULL;
}

static void pool_submit(unsigned seed)
{
    struct job *j = malloc(sizeof(*j));
    if (j == NULL)
        abort();
    j->next = NULL;
    j->seed = seed;

    pthread_mutex_lock(&g_queue_lock);
    if (g_queue_tail)
        g_queue_tail->next = j;
    else
        g_queue_head = j;
    g_queue_tail = j;
    pthread_cond_signal(&g_queue_cv);
    pthread_mutex_unlock(&g_queue_lock);
}

/* Let the workers drain the queue, then wait for all of them to exit. */
static void pool_shutdown(pthread_t *workers, int n)
{
    g_stopping = true;
    pthread_cond_broadcast(&g_queue_cv);
    for (int i = 0; i < n; i++)
        pthread_join(workers[i], NULL);
}

int main(void)
{
    pthread_t workers[NWORKERS];

    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&workers[i], NULL, worker, NULL);

    for (unsigned i = 0; i < NJOBS; i++)
        pool_submit(i * 2654435761u);

    pool_shutdown(workers, NWORKERS);

    assert(g_jobs_done == NJOBS);
    printf("%u jobs, checksum %lx\n", g_jobs_done, g_checksum);
    return 0;
}

// ctrlsched-truth: class=condvar_check fails=assertion
// ctrlsched-truth: cause q_len R1@43 W2@35 W3@48 R1@45
/*
 * worker_pool_cv.c - a two-worker pool fed through a bounded job queue.
 *
 * main submits NJOBS jobs and then one QUIT job per worker; submit()
 * wakes the workers with a broadcast.
 *
 * Bug: job_pop() waits with "if (q_len == 0) pthread_cond_wait(...)"
 * instead of a while loop.  When both workers are idle and a broadcast
 * announces a single job, one worker takes it and the other returns from
 * the wait to an empty queue, underflowing it (assertion).
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define QCAP     8
#define NJOBS    32
#define NWORKERS 2
#define JOB_QUIT (-1)

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_nonempty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t q_nonfull = PTHREAD_COND_INITIALIZER;
static int q_jobs[QCAP], q_head, q_len;
static long results[NWORKERS];

static void submit(int job)
{
    pthread_mutex_lock(&q_lock);
    while (q_len == QCAP)
        pthread_cond_wait(&q_nonfull, &q_lock);
    q_jobs[(q_head + q_len) % QCAP] = job;
    q_len++;
    pthread_cond_broadcast(&q_nonempty);
    pthread_mutex_unlock(&q_lock);
}

static int job_pop(void)
{
    pthread_mutex_lock(&q_lock);
    if (q_len == 0)
        pthread_cond_wait(&q_nonempty, &q_lock);
    assert(q_len > 0 && "job queue underflow");
    int job = q_jobs[q_head];
    q_head = (q_head + 1) % QCAP;
    q_len--;
    pthread_cond_signal(&q_nonfull);
    pthread_mutex_unlock(&q_lock);
    return job;
}

static void *worker_main(void *arg)
{
    long *result = arg;
    for (;;) {
        int job = job_pop();
        if (job == JOB_QUIT)
            break;
        long acc = 0;
        for (int k = 0; k < 20000; k++)   /* "run" the job */
            acc += (long)job * k % 7;
        *result += acc;
    }
    return NULL;
}

int main(void)
{
    pthread_t w[NWORKERS];
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&w[i], NULL, worker_main, &results[i]);
    for (int j = 1; j <= NJOBS; j++)
        submit(j);
    for (int i = 0; i < NWORKERS; i++)
        submit(JOB_QUIT);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(w[i], NULL);

    long total = 0;
    for (int i = 0; i < NWORKERS; i++)
        total += results[i];
    printf("%d jobs done, checksum %ld\n", NJOBS, total);
    return 0;
}

// ctrlsched-truth: class=condvar_check fails=assertion
// ctrlsched-truth: cause g_len W1@26 W2@42 R3@35
// ctrlsched-truth: cause g_nonempty,g_len wait1@34:g_nonempty signal2@27:g_nonempty W3@42:g_len R1@35:g_len
// Job scheduler run queue: main queues a backlog of checksum jobs for two
// workers; a feeder thread adds late jobs and then shuts the queue down.
// take() waits with `if`, not `while`: a worker woken for a late job can lose
// it to the other worker, back from its previous job, and finds the queue
// empty although it was never shut down.
#include <assert.h>
#include <pthread.h>
#include <string.h>

#define QCAP 8
#define BACKLOG 4
#define NJOBS 6
#define SEG 1024
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_nonempty = PTHREAD_COND_INITIALIZER;
static int g_jobs[QCAP], g_head, g_len, g_closed;
static unsigned char g_data[NJOBS][SEG];
static unsigned g_sums[NJOBS];

static void submit(int job) {
    pthread_mutex_lock(&g_lock);
    g_jobs[(g_head + g_len) % QCAP] = job;
    g_len++;
    pthread_cond_signal(&g_nonempty);
    pthread_mutex_unlock(&g_lock);
}

static int take(int *job) {             /* returns 0 once the queue is shut down */
    pthread_mutex_lock(&g_lock);
    if (g_len == 0 && !g_closed)
        pthread_cond_wait(&g_nonempty, &g_lock);
    if (g_len == 0) {                   /* only a shutdown leaves it empty */
        assert(g_closed && "woke up to an empty run queue");
        pthread_mutex_unlock(&g_lock);
        return 0;
    }
    *job = g_jobs[g_head];
    g_head = (g_head + 1) % QCAP;
    g_len--;
    pthread_mutex_unlock(&g_lock);
    return 1;
}

static void *worker(void *arg) {
    int *ran = arg, job;
    while (take(&job)) {
        unsigned h = 2166136261u;       /* FNV-1a over the job's segment */
        for (int k = 0; k < SEG; k++)
            h = (h ^ g_data[job][k]) * 16777619u;
        g_sums[job] = h;
        (*ran)++;
    }
    return NULL;
}

static void *feeder(void *arg) {
    for (int job = BACKLOG; job < NJOBS; job++)
        submit(job);
    pthread_mutex_lock(&g_lock);
    g_closed = 1;
    pthread_cond_broadcast(&g_nonempty);
    pthread_mutex_unlock(&g_lock);
    return arg;
}

int main(void) {
    pthread_t w[2], f;
    int ran[2] = {0, 0};
    for (int j = 0; j < NJOBS; j++) memset(g_data[j], 'a' + j, SEG);
    for (int j = 0; j < BACKLOG; j++) submit(j);
    pthread_create(&f, NULL, feeder, NULL);
    for (int i = 0; i < 2; i++) pthread_create(&w[i], NULL, worker, &ran[i]);
    for (int i = 0; i < 2; i++) pthread_join(w[i], NULL);
    pthread_join(f, NULL);
    assert(ran[0] + ran[1] == NJOBS);
    return 0;
}

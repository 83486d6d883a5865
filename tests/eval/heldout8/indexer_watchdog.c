// ctrlsched-truth: class=order_violation fails=hang
// ctrlsched-truth: cause g_indexer_state W1@38 W1@45 R2@52
/*
 * Search indexer with a watchdog.  The indexer thread publishes its state
 * (STARTING -> RUNNING -> IDLE) while it indexes a batch of documents; the
 * watchdog waits until the indexer is RUNNING, then probes it until it
 * goes IDLE and reports how many probes it made.
 *
 * Bug: the watchdog waits for the transient RUNNING state.  If the indexer
 * gets through its whole batch and is back to IDLE before the watchdog's
 * first look, the watchdog never sees RUNNING and spins forever.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

enum { STARTING, RUNNING, IDLE };

#define DOCS 64
#define DOC_LEN 2048

static atomic_int g_indexer_state = STARTING;
static unsigned char g_docs[DOCS][DOC_LEN];
static unsigned g_index[DOCS];
static unsigned long g_probes;

static void load_corpus(void)
{
    for (int d = 0; d < DOCS; d++)
        for (int i = 0; i < DOC_LEN; i++)
            g_docs[d][i] = (unsigned char)("lorem ipsum dolor "[(d + i) % 18]);
}

static void *indexer(void *arg)
{
    (void)arg;
    atomic_store_explicit(&g_indexer_state, RUNNING, memory_order_relaxed);
    for (int d = 0; d < DOCS; d++) {
        unsigned h = 2166136261u;             /* FNV-1a */
        for (int i = 0; i < DOC_LEN; i++)
            h = (h ^ g_docs[d][i]) * 16777619u;
        g_index[d] = h;
    }
    atomic_store_explicit(&g_indexer_state, IDLE, memory_order_relaxed);
    return NULL;
}

static void *watchdog(void *arg)
{
    (void)arg;
    while (atomic_load_explicit(&g_indexer_state, memory_order_relaxed) != RUNNING)
        sched_yield();
    while (atomic_load_explicit(&g_indexer_state, memory_order_relaxed) == RUNNING) {
        g_probes++;
        sched_yield();
    }
    return NULL;
}

int main(void)
{
    pthread_t w, ix;
    pthread_create(&w, NULL, watchdog, NULL);
    load_corpus();
    pthread_create(&ix, NULL, indexer, NULL);
    pthread_join(ix, NULL);
    pthread_join(w, NULL);
    printf("indexed %d docs, first=%08x, watchdog probes=%lu\n",
           DOCS, g_index[0], g_probes);
    return 0;
}

// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_ready,g_go W1@30:g_ready R2@60:g_ready signal2@62:g_go wait1@38:g_go
/*
 * Start gate of a small load generator (C11 threads): every worker checks in, main waits until
 * all of them have, then opens the gate with one broadcast so that they start together.
 */
#include <stdio.h>
#include <string.h>
#include <threads.h>

#define WORKERS 2
#define SCRATCH_BYTES 64

static mtx_t g_gate_lock;
static cnd_t g_checked_in;   /* workers -> main */
static cnd_t g_go;           /* main -> workers */
static int g_ready;

struct worker {
    int id;
    unsigned char scratch[SCRATCH_BYTES];
    unsigned long requests;
};

static int worker_main(void *arg)
{
    struct worker *w = arg;

    mtx_lock(&g_gate_lock);
    g_ready++;
    cnd_signal(&g_checked_in);
    mtx_unlock(&g_gate_lock);

    /* Fill the request template while the other workers check in. */
    memset(w->scratch, 'a' + w->id, sizeof w->scratch);

    mtx_lock(&g_gate_lock);
    cnd_wait(&g_go, &g_gate_lock);
    mtx_unlock(&g_gate_lock);

    for (int i = 0; i < 4; i++)
        w->requests += w->scratch[i] != 0;
    return 0;
}

int main(void)
{
    struct worker workers[WORKERS];
    thrd_t tid[WORKERS];

    mtx_init(&g_gate_lock, mtx_plain);
    cnd_init(&g_checked_in);
    cnd_init(&g_go);
    for (int i = 0; i < WORKERS; i++) {
        workers[i] = (struct worker){ .id = i };
        thrd_create(&tid[i], worker_main, &workers[i]);
    }

    mtx_lock(&g_gate_lock);
    while (g_ready < WORKERS)
        cnd_wait(&g_checked_in, &g_gate_lock);
    cnd_broadcast(&g_go);
    mtx_unlock(&g_gate_lock);

    unsigned long total = 0;
    for (int i = 0; i < WORKERS; i++) {
        thrd_join(tid[i], NULL);
        total += workers[i].requests;
    }
    printf("%lu requests sent\n", total);
    return 0;
}

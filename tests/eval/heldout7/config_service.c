// ctrlsched-truth: class=order_violation fails=assertion
// ctrlsched-truth: cause * W1@29:ptr R2@45:ptr R2@58:cfg W1@38:cfg
// Config service: a loader thread parses the service limits and makes them
// the current config; request handlers look the config up before serving.
// Handlers that find no config yet queue on a semaphore turnstile that the
// loader opens when it is done; later handlers take the fast path. But
// config_install() makes the new object current as soon as it is allocated,
// before the loader has stored the limits into it, so a handler on the fast
// path can read max_conns == 0 and refuse requests it should serve.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define HANDLERS 2
#define REQUESTS 3

struct config { int max_conns; int burst; };

static const char *g_config_text = "max_conns=4 burst=8";
static struct config *g_cfg;            /* current config, NULL until loaded */
static sem_t g_cfg_ready;

static struct config *config_install(void) {
    struct config *c = calloc(1, sizeof *c);
    if (c == NULL)
        abort();
    g_cfg = c;
    return c;
}

static void *loader(void *arg) {
    int conns = 1, burst = 1;
    if (sscanf(g_config_text, "max_conns=%d burst=%d", &conns, &burst) != 2)
        fprintf(stderr, "bad config, using defaults\n");
    struct config *c = config_install();
    c->max_conns = conns;
    c->burst = burst;
    sem_post(&g_cfg_ready);             /* open the turnstile */
    return arg;
}

static const struct config *current_config(void) {
    const struct config *c = g_cfg;
    if (c == NULL) {                    /* not loaded yet: wait at the turnstile */
        sem_wait(&g_cfg_ready);
        sem_post(&g_cfg_ready);         /* let the next waiting handler through */
        c = g_cfg;
    }
    return c;
}

static void *handler(void *arg) {
    int *served = arg;
    const struct config *c = current_config();
    for (int r = 0; r < REQUESTS; r++)
        if (r < c->max_conns)           /* per-handler connection limit */
            (*served)++;
    return NULL;
}

int main(void) {
    pthread_t h[HANDLERS], l;
    int served[HANDLERS] = {0};
    sem_init(&g_cfg_ready, 0, 0);
    for (int i = 0; i < HANDLERS; i++)
        pthread_create(&h[i], NULL, handler, &served[i]);
    pthread_create(&l, NULL, loader, NULL);
    for (int i = 0; i < HANDLERS; i++)
        pthread_join(h[i], NULL);
    pthread_join(l, NULL);
    printf("served %d + %d\n", served[0], served[1]);
    assert(served[0] + served[1] == HANDLERS * REQUESTS);
    free(g_cfg);
    return 0;
}

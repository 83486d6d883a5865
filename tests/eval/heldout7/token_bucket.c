// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_tokens R1@24 W2@27 W1@27
// Token-bucket admission control for an API gateway: request handlers take
// one token per request from a shared bucket and reject the request when the
// bucket is empty. try_acquire() reads the token count and writes back the
// decremented value as two separate atomic operations, so two handlers can
// read the same count and both take "the same" token. More requests are
// admitted than the bucket allowed and main's accounting check fails.
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>

#define BUCKET_SIZE 4
#define HANDLERS 2
#define REQUESTS_PER_HANDLER 3

static atomic_int g_tokens = BUCKET_SIZE;
static atomic_int g_admitted;
static atomic_int g_rejected;

static int try_acquire(void)
{
    int have = atomic_load_explicit(&g_tokens, memory_order_acquire);
    if (have <= 0)
        return 0;
    atomic_store_explicit(&g_tokens, have - 1, memory_order_release);
    return 1;
}

static int handler(void *arg)
{
    (void)arg;
    for (int i = 0; i < REQUESTS_PER_HANDLER; i++) {
        if (try_acquire())
            atomic_fetch_add_explicit(&g_admitted, 1, memory_order_relaxed);
        else
            atomic_fetch_add_explicit(&g_rejected, 1, memory_order_relaxed);
    }
    return 0;
}

int main(void)
{
    thrd_t t[HANDLERS];
    for (int i = 0; i < HANDLERS; i++)
        if (thrd_create(&t[i], handler, NULL) != thrd_success)
            return 2;
    for (int i = 0; i < HANDLERS; i++)
        thrd_join(t[i], NULL);

    int admitted = atomic_load(&g_admitted);
    int rejected = atomic_load(&g_rejected);
    printf("admitted %d rejected %d tokens left %d\n", admitted, rejected,
           atomic_load(&g_tokens));
    assert(admitted + rejected == HANDLERS * REQUESTS_PER_HANDLER);
    assert(admitted == BUCKET_SIZE);
    assert(atomic_load(&g_tokens) == 0);
    return 0;
}

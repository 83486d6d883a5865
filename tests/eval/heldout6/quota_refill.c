// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause tokens R1@29 R2@29 W1@40 W2@40
// ctrlsched-truth: cause tokens R1@29 R2@29 W2@40 W1@40
/*
 * quota_refill.c - a token-bucket quota shared by two request workers.
 *
 * A timer thread tops the bucket up every millisecond; each worker takes one
 * token per request and backs off when the bucket is empty.
 *
 * Bug: quota_take() checks "tokens > 0" and decrements in two separate
 * critical sections.  With one token left, both workers can see it and both
 * take it, driving the bucket to -1 (the invariant assertion fires).
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define BUCKET_MAX    4
#define REFILL_ROUNDS 8
#define ATTEMPTS      40

static pthread_mutex_t quota_lock = PTHREAD_MUTEX_INITIALIZER;
static int tokens = 1;

static int quota_available(void)
{
    pthread_mutex_lock(&quota_lock);
    int ok = tokens > 0;
    pthread_mutex_unlock(&quota_lock);
    return ok;
}

/* Take one token; returns 0 when the quota is exhausted. */
static int quota_take(void)
{
    if (!quota_available())
        return 0;
    pthread_mutex_lock(&quota_lock);
    tokens--;
    assert(tokens >= 0 && "quota went negative");
    pthread_mutex_unlock(&quota_lock);
    return 1;
}

static void quota_refill(int n)
{
    pthread_mutex_lock(&quota_lock);
    tokens += n;
    if (tokens > BUCKET_MAX)
        tokens = BUCKET_MAX;
    pthread_mutex_unlock(&quota_lock);
}

static void *timer_main(void *arg)
{
    (void)arg;
    for (int i = 0; i < REFILL_ROUNDS; i++) {
        usleep(1000);
        quota_refill(2);
    }
    return NULL;
}

static void *worker_main(void *arg)
{
    int *served = arg;
    for (int i = 0; i < ATTEMPTS; i++) {
        if (quota_take())
            (*served)++;
        else
            usleep(200);   /* back off until the next refill */
    }
    return NULL;
}

int main(void)
{
    pthread_t timer, w[2];
    int served[2] = {0, 0};

    pthread_create(&timer, NULL, timer_main, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, worker_main, &served[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    pthread_join(timer, NULL);
    printf("served %d + %d requests, %d tokens left\n", served[0], served[1], tokens);
    return 0;
}

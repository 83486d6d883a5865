// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_bucket R1@28 W2@40 W1@40
/*
 * Token-bucket limiter in front of the upload workers. Each upload costs one token; the
 * bucket is refilled elsewhere (not in this test). At the end the limiter's audit checks that
 * no token was created or lost: tokens left + tokens granted == capacity.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#define BUCKET_CAPACITY 10
#define UPLOAD_WORKERS 2
#define UPLOADS_PER_WORKER 3

struct token_bucket {
    pthread_mutex_t lock;
    int tokens;
    int granted;
};

static struct token_bucket g_bucket = { PTHREAD_MUTEX_INITIALIZER, BUCKET_CAPACITY, 0 };
static pthread_barrier_t g_start;

static int bucket_available(struct token_bucket *b)
{
    pthread_mutex_lock(&b->lock);
    int n = b->tokens;
    pthread_mutex_unlock(&b->lock);
    return n;
}

/* Takes `cost` tokens if the bucket has them; returns false when rate limited. */
static bool bucket_take(struct token_bucket *b, int cost)
{
    int avail = bucket_available(b);
    if (avail < cost)
        return false;
    pthread_mutex_lock(&b->lock);
    b->tokens = avail - cost;
    b->granted += cost;
    pthread_mutex_unlock(&b->lock);
    return true;
}

static void *upload_worker(void *arg)
{
    int *sent = arg;
    pthread_barrier_wait(&g_start);
    for (int i = 0; i < UPLOADS_PER_WORKER; i++) {
        if (bucket_take(&g_bucket, 1))
            (*sent)++;
    }
    return NULL;
}

int main(void)
{
    pthread_t tid[UPLOAD_WORKERS];
    int sent[UPLOAD_WORKERS] = { 0 };

    pthread_barrier_init(&g_start, NULL, UPLOAD_WORKERS);
    for (int i = 0; i < UPLOAD_WORKERS; i++)
        pthread_create(&tid[i], NULL, upload_worker, &sent[i]);
    for (int i = 0; i < UPLOAD_WORKERS; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&g_start);

    if (g_bucket.tokens + g_bucket.granted != BUCKET_CAPACITY) {
        fprintf(stderr, "token audit failed: %d left + %d granted != %d\n",
                g_bucket.tokens, g_bucket.granted, BUCKET_CAPACITY);
        return 2;
    }
    printf("uploads: %d + %d, %d tokens left\n", sent[0], sent[1], g_bucket.tokens);
    return 0;
}

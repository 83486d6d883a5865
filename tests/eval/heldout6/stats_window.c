// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause window_sum,window_count W1@35:window_sum R2@49:window_sum R2@52:window_count W1@42:window_count
// ctrlsched-truth: cause window_sum,window_count R1@49:window_sum W2@35:window_sum W2@42:window_count R1@52:window_count
/*
 * stats_window.c - sliding-window average of a temperature sensor.
 *
 * A sampler thread feeds readings (always within [SAMPLE_MIN, SAMPLE_MAX])
 * into a ring of WINDOW slots; a reporter thread prints the running mean.
 *
 * Bug: window_sum and window_count each have their own lock and are updated
 * (and read) in separate critical sections.  While the window is filling,
 * the reporter can pair a sum of k+1 samples with a count of k (or a sum of
 * k with a count of k+1), and the mean falls outside the possible range.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define WINDOW     16
#define NSAMPLES   48
#define NREPORTS   40
#define SAMPLE_MIN 90
#define SAMPLE_MAX 110

static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int ring[WINDOW], ring_pos;
static long window_sum;
static int window_count;

static void window_add(int sample)
{
    pthread_mutex_lock(&sum_lock);
    window_sum += sample - ring[ring_pos];   /* empty slots hold 0 */
    ring[ring_pos] = sample;
    ring_pos = (ring_pos + 1) % WINDOW;
    pthread_mutex_unlock(&sum_lock);

    pthread_mutex_lock(&count_lock);
    if (window_count < WINDOW)
        window_count++;
    pthread_mutex_unlock(&count_lock);
}

static void window_report(void)
{
    pthread_mutex_lock(&sum_lock);
    long sum = window_sum;
    pthread_mutex_unlock(&sum_lock);
    pthread_mutex_lock(&count_lock);
    int count = window_count;
    pthread_mutex_unlock(&count_lock);

    if (count == 0)
        return;
    assert(sum >= (long)count * SAMPLE_MIN && sum <= (long)count * SAMPLE_MAX);
    printf("mean over %2d samples: %ld\n", count, sum / count);
}

static void *sampler_main(void *arg)
{
    (void)arg;
    for (int i = 0; i < NSAMPLES; i++) {
        window_add(100 + (i * 7) % 21 - 10);   /* fake sensor reading */
        usleep(100);
    }
    return NULL;
}

static void *reporter_main(void *arg)
{
    (void)arg;
    for (int i = 0; i < NREPORTS; i++) {
        window_report();
        usleep(100);
    }
    return NULL;
}

int main(void)
{
    pthread_t sampler, reporter;
    pthread_create(&sampler, NULL, sampler_main, NULL);
    pthread_create(&reporter, NULL, reporter_main, NULL);
    pthread_join(sampler, NULL);
    pthread_join(reporter, NULL);
    return 0;
}

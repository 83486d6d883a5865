// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_window W1@28:g_window R2@40:g_window+8 R2@39:g_window W1@32:g_window+8
/*
 * Replay protection for a packet receiver: only sequence numbers inside the
 * sliding window [lo, hi) are accepted, and the window is always exactly
 * WINDOW wide.  A maintenance thread slides the window forward; the
 * receiver checks incoming sequence numbers under the read lock.
 *
 * Bug: slide_window() moves lo and hi in two separate write-locked
 * sections.  A reader that takes the read lock between them sees the new lo
 * with the old hi, and its width check fails.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define WINDOW 64
#define STEP   16

struct seq_range { long lo, hi; };

static pthread_rwlock_t window_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct seq_range g_window = { 0, WINDOW };

static void slide_window(long step)
{
    pthread_rwlock_wrlock(&window_lock);
    g_window.lo += step;
    pthread_rwlock_unlock(&window_lock);

    pthread_rwlock_wrlock(&window_lock);
    g_window.hi += step;
    pthread_rwlock_unlock(&window_lock);
}

static int seq_acceptable(long seq)
{
    pthread_rwlock_rdlock(&window_lock);
    long lo = g_window.lo;
    long hi = g_window.hi;
    pthread_rwlock_unlock(&window_lock);
    assert(hi - lo == WINDOW);
    return lo <= seq && seq < hi;
}

static void *maintainer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        slide_window(STEP);
    return NULL;
}

static void *receiver(void *arg)
{
    static const long incoming[] = { 5, 40, 70, 90 };
    int *accepted = arg;
    for (int i = 0; i < 4; i++)
        *accepted += seq_acceptable(incoming[i]);
    return NULL;
}

int main(void)
{
    pthread_t m, r;
    int accepted = 0;
    pthread_create(&m, NULL, maintainer, NULL);
    pthread_create(&r, NULL, receiver, &accepted);
    pthread_join(m, NULL);
    pthread_join(r, NULL);
    printf("window [%ld,%ld), accepted %d packets\n",
           g_window.lo, g_window.hi, accepted);
    return 0;
}

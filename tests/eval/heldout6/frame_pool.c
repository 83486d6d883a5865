// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause frames R1@54 R2@54 W1@56 W2@56
// ctrlsched-truth: cause frames R1@54 R2@54 W2@56 W1@56
/*
 * frame_pool.c - a fixed pool of frame buffers (C11 threads).  main hands a
 * frame to a decoder thread and, if the decode deadline passes, reclaims it.
 * Both paths call frame_release(), meant to be idempotent via f->returned.
 * Bug: "returned" is tested and set without the pool lock; if the deadline
 * expires as the decoder finishes, both see returned == 0 and both push the
 * frame, tripping the double-release assertion.
 */
#include <assert.h>
#include <stdio.h>
#include <threads.h>   /* also provides <time.h> */

#define NFRAMES    4
#define FRAME_SIZE 4096

struct frame {
    struct frame *next;
    int returned, in_pool;   /* given back / currently on the free list */
    unsigned char data[FRAME_SIZE];
};

static struct frame frames[NFRAMES];
static struct frame *free_list;
static int free_count;
static mtx_t pool_lock;
static cnd_t done_cv;   /* signalled when decode_done is set */
static int decode_done;

static void frame_push(struct frame *f)   /* pool_lock held */
{
    assert(!f->in_pool && "frame released twice");
    f->in_pool = 1;
    f->next = free_list;
    free_list = f;
    free_count++;
}

static struct frame *frame_get(void)
{
    mtx_lock(&pool_lock);
    struct frame *f = free_list;
    free_list = f->next;
    f->in_pool = f->returned = 0;
    free_count--;
    mtx_unlock(&pool_lock);
    return f;
}

static void frame_release(struct frame *f)
{
    if (f->returned)
        return;
    f->returned = 1;
    mtx_lock(&pool_lock);
    frame_push(f);
    mtx_unlock(&pool_lock);
}

static int decoder(void *arg)
{
    struct frame *f = arg;
    for (int i = 0; i < FRAME_SIZE; i++)   /* "decode" into the frame */
        f->data[i] = (unsigned char)(i * 31);
    frame_release(f);
    mtx_lock(&pool_lock);
    decode_done = 1;
    cnd_signal(&done_cv);
    mtx_unlock(&pool_lock);
    return 0;
}

int main(void)
{
    mtx_init(&pool_lock, mtx_plain);
    cnd_init(&done_cv);
    for (int i = 0; i < NFRAMES; i++)
        frame_push(&frames[i]);

    struct frame *f = frame_get();
    thrd_t t;
    struct timespec deadline;   /* decode budget: one second */
    timespec_get(&deadline, TIME_UTC);
    deadline.tv_sec += 1;
    thrd_create(&t, decoder, f);
    mtx_lock(&pool_lock);
    int rc = thrd_success;
    while (!decode_done && rc != thrd_timedout)
        rc = cnd_timedwait(&done_cv, &pool_lock, &deadline);
    int timed_out = !decode_done;
    mtx_unlock(&pool_lock);
    if (timed_out)
        frame_release(f);   /* reclaim the frame from the slow decoder */
    thrd_join(t, NULL);
    printf("free frames: %d/%d%s\n", free_count, NFRAMES, timed_out ? " (timed out)" : "");
    return free_count == NFRAMES ? 0 : 1;
}

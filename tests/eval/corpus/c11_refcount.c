// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_frame W1@31 W2@31 R1@33
/* c11_refcount.c - a video frame shared by two C11 threads, released by reference count.
 *
 * frame_release() decrements the count under the mutex but tests it for zero after unlocking.
 * When both releases decrement before either tests, both see zero and the frame is recycled
 * twice, which the frame pool detects.
 */
#include <assert.h>
#include <stdio.h>
#include <threads.h>

struct frame {
  int refs;
  int recycled;
  unsigned char pixels[64];
};

static struct frame g_frame = {2, 0, {0}};
static mtx_t g_frame_lock;

static void recycle(struct frame *frame) {
  mtx_lock(&g_frame_lock);
  frame->recycled++;
  assert(frame->recycled == 1 && "frame recycled twice");
  mtx_unlock(&g_frame_lock);
}

static void frame_release(struct frame *frame) {
  mtx_lock(&g_frame_lock);
  frame->refs--;
  mtx_unlock(&g_frame_lock);
  if (frame->refs == 0)
    recycle(frame);
}

static int encoder(void *arg) {
  struct frame *frame = arg;
  int sum = 0;
  for (int i = 0; i < 4; i++)
    sum += frame->pixels[i];
  frame_release(frame);
  return sum;
}

int main(void) {
  thrd_t a, b;
  mtx_init(&g_frame_lock, mtx_plain);
  thrd_create(&a, encoder, &g_frame);
  thrd_create(&b, encoder, &g_frame);
  thrd_join(a, NULL);
  thrd_join(b, NULL);
  printf("frame recycled %d time(s)\n", g_frame.recycled);
  mtx_destroy(&g_frame_lock);
  return 0;
}

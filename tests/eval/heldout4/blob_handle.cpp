// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause * W1@44 W2@44 R1@45
// Blob handles of the object store's read path: a blob read from disk is
// shared by the request that asked for it and the prefetcher that warms the
// next range; whoever drops the last reference returns its buffer to the pool.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <mutex>
#include <semaphore>
#include <thread>

constexpr int kBuffers = 4;

static std::mutex g_pool_mu;
static bool g_in_pool[kBuffers];
static std::counting_semaphore<kBuffers> g_io_slots(2);  // concurrent disk reads
static long g_bytes_served;  // statistics only

struct Blob {
    std::atomic<int> refs;
    int buffer;
    int size;
};

static void pool_put(int buffer) {
    std::lock_guard<std::mutex> lk(g_pool_mu);
    assert(!g_in_pool[buffer] && "buffer returned to the pool twice");
    g_in_pool[buffer] = true;
}

static int pool_get() {
    std::lock_guard<std::mutex> lk(g_pool_mu);
    for (int i = 0; i < kBuffers; ++i) {
        if (g_in_pool[i]) {
            g_in_pool[i] = false;
            return i;
        }
    }
    return -1;
}

static void blob_release(Blob* b) {
    b->refs.fetch_sub(1, std::memory_order_acq_rel);
    if (b->refs.load(std::memory_order_acquire) == 0)
        pool_put(b->buffer);
}

static void read_range(Blob* b, int offset, int len) {
    g_io_slots.acquire();
    int end = offset + len > b->size ? b->size : offset + len;
    g_bytes_served += end - offset;
    g_io_slots.release();
    blob_release(b);
}

int main() {
    for (bool& free_buffer : g_in_pool)
        free_buffer = true;
    int buffer = pool_get();
    Blob* blob = new Blob{{2}, buffer, 4096};  // one reference per reader
    std::thread request(read_range, blob, 0, 1024);
    std::thread prefetch(read_range, blob, 1024, 4096);
    request.join();
    prefetch.join();
    delete blob;
    int free_buffers = 0;
    for (bool free_buffer : g_in_pool)
        free_buffers += free_buffer;
    std::printf("served %ld bytes, %d of %d buffers free\n", g_bytes_served, free_buffers,
                kBuffers);
    return free_buffers == kBuffers ? 0 : 1;
}

// ctrlsched-truth: class=condvar_check fails=signal
// ctrlsched-truth: cause g_head R1@36 W2@39 R1@38
// Document queue of the search indexer: the crawler thread posts document ids,
// two indexer threads take three documents each and index them.
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

constexpr int kCap = 8;
constexpr int kPerIndexer = 3;

static std::mutex g_mu;
static std::condition_variable g_cv;
static int g_ring[kCap];
static int g_head, g_tail;  // g_tail - g_head documents queued

struct Stats {
    std::mutex mu;
    int indexed;
    int errors;
    int last_bad_doc;
};
static Stats g_stats;

static void post(int doc) {
    std::lock_guard<std::mutex> lk(g_mu);
    g_ring[g_tail % kCap] = doc;
    g_tail++;
    g_cv.notify_one();
}

static int take() {
    std::unique_lock<std::mutex> lk(g_mu);
    if (g_head == g_tail)
        g_cv.wait(lk);
    int doc = g_ring[g_head % kCap];
    g_head++;
    return doc;
}

static void indexer(int id) {
    for (int i = 0; i < kPerIndexer; ++i) {
        int doc = take();
        if (doc <= 0) {
            std::lock_guard<std::mutex> lk(g_stats.mu);
            g_stats.errors++;
            g_stats.last_bad_doc = doc;
            std::fprintf(stderr, "indexer %d: invalid document id %d\n", id, doc);
            std::abort();
        }
        std::lock_guard<std::mutex> lk(g_stats.mu);
        g_stats.indexed++;
    }
}

int main() {
    std::thread a(indexer, 1);
    std::thread b(indexer, 2);
    std::thread crawler([] {
        for (int doc = 1; doc <= 2 * kPerIndexer; ++doc)
            post(doc);
    });
    crawler.join();
    a.join();
    b.join();
    std::printf("indexed %d documents, %d errors\n", g_stats.indexed, g_stats.errors);
    return g_stats.indexed == 2 * kPerIndexer ? 0 : 1;
}

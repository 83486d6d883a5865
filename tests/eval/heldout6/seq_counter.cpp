// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_ids R1@20 R2@20 W1@21 W2@21
// ctrlsched-truth: cause g_ids R1@20 R2@20 W2@21 W1@21
//
// seq_counter.cpp - request id generator shared by three worker threads.
//
// Bug: IdGenerator::take() reads the counter and writes back the incremented
// value as two separate atomic operations instead of one fetch_add. Each
// operation is atomic, the pair is not: two threads that load the same value
// before either stores both hand out the same request id. main checks that
// every id handed out is distinct.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

class IdGenerator {
public:
    int take() {
        int id = next_.load(std::memory_order_relaxed);
        next_.store(id + 1, std::memory_order_relaxed);
        return id;
    }

private:
    std::atomic<int> next_{1};
};

constexpr int kThreads = 3;
constexpr int kPerThread = 4;

IdGenerator g_ids;
int g_taken[kThreads][kPerThread];

void worker(int t) {
    for (int i = 0; i < kPerThread; ++i)
        g_taken[t][i] = g_ids.take();
}

int main() {
    std::thread threads[kThreads];
    for (int t = 0; t < kThreads; ++t)
        threads[t] = std::thread(worker, t);
    for (auto& th : threads)
        th.join();

    const int n = kThreads * kPerThread;
    const int* ids = &g_taken[0][0];
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (ids[i] == ids[j]) {
                std::printf("duplicate request id %d\n", ids[i]);
                assert(!"request ids must be unique");
            }
    std::printf("handed out %d unique ids\n", n);
    return 0;
}

// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause * R1@38:count W2@32:count signal2@33:cv wait1@39:cv
//
// Batch dispatcher for a checksum service: the dispatcher cuts each input
// buffer into chunks, hands the chunks to a small worker pool and blocks until
// the whole batch is done before it combines the partial sums.

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// Counts the outstanding jobs of one batch. Shared between the dispatcher and
// the batch's queued jobs, so it stays alive until the last job has retired.
class BatchLatch {
public:
    explicit BatchLatch(std::size_t jobs) : remaining_(jobs) {}

    // Called by workers; deliberately does not take mu_ so that finishing a
    // job never contends with the dispatcher.
    void count_down() {
        if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1)
            cv_.notify_all();
    }

    void wait() {
        std::unique_lock lk(mu_);
        while (remaining_.load(std::memory_order_acquire) != 0)
            cv_.wait(lk);
    }

private:
    std::atomic<std::size_t> remaining_;
    std::mutex mu_;
    std::condition_variable cv_;
};

class WorkerPool {
public:
    explicit WorkerPool(unsigned n) {
        for (unsigned i = 0; i < n; ++i)
            workers_.emplace_back([this] { run(); });
    }

    ~WorkerPool() {
        {
            std::lock_guard lk(mu_);
            closed_ = true;
        }
        cv_.notify_all();
        for (auto& t : workers_)
            t.join();
    }

    void submit(std::shared_ptr<BatchLatch> batch, std::function<void()> fn) {
        {
            std::lock_guard lk(mu_);
            jobs_.push_back(Job{std::move(fn), std::move(batch)});
        }
        cv_.notify_one();
    }

private:
    struct Job {
        std::function<void()> fn;
        std::shared_ptr<BatchLatch> batch;
    };

    void run() {
        for (;;) {
            Job job;
            {
                std::unique_lock lk(mu_);
                cv_.wait(lk, [this] { return closed_ || !jobs_.empty(); });
                if (jobs_.empty())
                    return;
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job.fn();
            if (job.batch)
                job.batch->count_down();
        }
    }

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<Job> jobs_;
    bool closed_ = false;
    std::vector<std::thread> workers_;
};

// Adler-style running sums over one chunk.
struct Partial {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::size_t len = 0;
};

Partial checksum_chunk(const std::uint8_t* p, std::size_t n) {
    constexpr std::uint32_t kMod = 65521;
    Partial r;
    for (std::size_t i = 0; i < n; ++i) {
        r.a = (r.a + p[i]) % kMod;
        r.b = (r.b + r.a) % kMod;
    }
    r.len = n;
    return r;
}

std::uint32_t combine(const std::vector<Partial>& parts) {
    constexpr std::uint32_t kMod = 65521;
    std::uint32_t a = 1, b = 0;
    for (const Partial& p : parts) {
        // Shift the chunk's sums by everything that came before it.
        std::uint64_t len = p.len % kMod;
        b = static_cast<std::uint32_t>((b + p.b + len * a) % kMod);
        a = static_cast<std::uint32_t>((a + p.a) % kMod);
    }
    return (b << 16) | a;
}

std::uint32_t checksum_serial(const std::vector<std::uint8_t>& buf) {
    Partial whole = checksum_chunk(buf.data(), buf.size());
    return combine({whole});
}

}  // namespace

int main() {
    constexpr std::size_t kChunk = 256;
    constexpr unsigned kBatches = 6;

    WorkerPool pool(3);
    unsigned ok = 0;

    for (unsigned batch = 0; batch < kBatches; ++batch) {
        std::vector<std::uint8_t> buf(kChunk * (3 + batch));
        for (std::size_t i = 0; i < buf.size(); ++i)
            buf[i] = static_cast<std::uint8_t>(i * 31 + batch * 7);

        const std::size_t chunks = (buf.size() + kChunk - 1) / kChunk;
        std::vector<Partial> parts(chunks);
        auto done = std::make_shared<BatchLatch>(chunks);
        for (std::size_t c = 0; c < chunks; ++c) {
            pool.submit(done, [&, c] {
                std::size_t off = c * kChunk;
                std::size_t n = std::min(kChunk, buf.size() - off);
                parts[c] = checksum_chunk(buf.data() + off, n);
            });
        }
        done->wait();

        std::uint32_t sum = combine(parts);
        assert(sum == checksum_serial(buf));
        ++ok;
    }

    std::printf("%u/%u batches verified\n", ok, kBatches);
    return 0;
}

// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_latency R1@33 W2@33 W1@33
//
// Request-latency histogram for a load generator. Each client thread records
// into its own histogram while it runs and folds it into the process-wide one
// when it finishes, so the hot path never touches shared state.

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// Power-of-two buckets over microseconds: bucket b holds [2^b, 2^(b+1)).
class LatencyHistogram {
public:
    static constexpr std::size_t kBuckets = 24;

    void record(std::uint64_t us) {
        std::lock_guard lk(mu_);
        ++counts_[bucket_for(us)];
    }

    void merge_from(const LatencyHistogram& other) {
        // The source may still be recording if its owner is slow to stop, so
        // take a consistent view of it.
        std::lock_guard lk(other.mu_);
        for (std::size_t b = 0; b < kBuckets; ++b)
            counts_[b] += other.counts_[b];
    }

    std::uint64_t total() const {
        std::lock_guard lk(mu_);
        std::uint64_t n = 0;
        for (std::uint64_t c : counts_)
            n += c;
        return n;
    }

    std::uint64_t bucket(std::size_t b) const {
        std::lock_guard lk(mu_);
        return counts_[b];
    }

private:
    static std::size_t bucket_for(std::uint64_t us) {
        std::size_t b = 0;
        while (us > 1 && b + 1 < kBuckets) {
            us >>= 1;
            ++b;
        }
        return b;
    }

    mutable std::mutex mu_;
    std::array<std::uint64_t, kBuckets> counts_{};
};

}  // namespace

LatencyHistogram g_latency;

namespace {

// Cheap deterministic stand-in for issuing a request and timing it.
struct FakeClient {
    explicit FakeClient(std::uint64_t seed) : state(seed * 2654435761u + 1) {}

    std::uint64_t next_latency_us() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        // Mostly fast responses with a long tail.
        std::uint64_t r = state >> 33;
        std::uint64_t base = 40 + (r % 200);
        return (r & 0x3f) == 0 ? base * 50 : base;
    }

    std::uint64_t state;
};

void client_main(unsigned id, unsigned requests) {
    LatencyHistogram local;
    FakeClient client(id);
    for (unsigned i = 0; i < requests; ++i)
        local.record(client.next_latency_us());
    g_latency.merge_from(local);
}

}  // namespace

int main() {
    constexpr unsigned kClients = 4;
    constexpr unsigned kRequests = 3000;

    std::vector<std::thread> clients;
    for (unsigned id = 0; id < kClients; ++id)
        clients.emplace_back(client_main, id, kRequests);
    for (auto& t : clients)
        t.join();

    const std::uint64_t total = g_latency.total();
    assert(total == std::uint64_t{kClients} * kRequests);

    std::printf("requests %llu\n", static_cast<unsigned long long>(total));
    for (std::size_t b = 0; b < LatencyHistogram::kBuckets; ++b) {
        if (std::uint64_t n = g_latency.bucket(b))
            std::printf("  [%8llu us, %8llu us)  %llu\n", 1ull << b, 2ull << b,
                        static_cast<unsigned long long>(n));
    }
    return 0;
}

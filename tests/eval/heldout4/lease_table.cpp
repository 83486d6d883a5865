// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_leases R1@24 R2@24 W1@29 W2@29
// ctrlsched-truth: cause g_leases R1@24 R2@24 W2@29 W1@29
// Shard leases for the nightly re-indexing job: each worker walks the shard
// list and processes every shard it can lease, so each shard is processed once.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

constexpr int kShards = 3;

struct Lease {
    int owner;  // worker id, 0 while the shard is free
    int runs;   // how often the shard was processed
    long docs;
};

static std::mutex g_lease_mu;
static Lease g_leases[kShards];

static bool shard_free(int shard) {
    std::lock_guard<std::mutex> guard(g_lease_mu);
    return g_leases[shard].owner == 0;
}

static void take_lease(int shard, int worker) {
    std::lock_guard<std::mutex> guard(g_lease_mu);
    g_leases[shard].owner = worker;
}

static long reindex(int shard) {
    long docs = 0;
    for (int i = 1; i <= 100 * (shard + 1); ++i)
        docs += i % 7 == 0;
    return docs;
}

static void worker(int id) {
    for (int s = 0; s < kShards; ++s) {
        if (!shard_free(s))
            continue;
        take_lease(s, id);
        long docs = reindex(s);
        std::lock_guard<std::mutex> guard(g_lease_mu);
        g_leases[s].runs++;
        g_leases[s].docs += docs;
    }
}

int main() {
    {
        std::jthread a(worker, 1);
        std::jthread b(worker, 2);
    }
    for (int s = 0; s < kShards; ++s) {
        std::printf("shard %d: owner %d, %ld docs\n", s, g_leases[s].owner, g_leases[s].docs);
        assert(g_leases[s].runs == 1 && "shard processed twice");
    }
    return 0;
}

// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_cache,g_stats lock1@34:g_cache lock2@53:g_stats lock2@43:g_cache lock1@48:g_stats
// ctrlsched-truth: cause g_stats,g_cache lock1@53:g_stats lock2@34:g_cache lock2@48:g_stats lock1@43:g_cache
// An LRU-ish cache that reports evictions to a stats object, and a stats dump that includes the
// cache's size. put() holds the cache lock while it records an eviction (stats lock); dump()
// holds the stats lock while it asks the cache for its size (cache lock).
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>

struct Cache {
    std::mutex mu;
    std::map<std::string, int> entries;
    static constexpr std::size_t kMaxEntries = 2;

    void put(const std::string &key, int value);
    std::size_t size();
};

struct Stats {
    std::mutex mu;
    long evictions = 0;

    void record_eviction();
    void dump();
};

Cache g_cache;
Stats g_stats;

void Cache::put(const std::string &key, int value) {
    std::lock_guard<std::mutex> lk(mu);
    if (entries.size() >= kMaxEntries && entries.find(key) == entries.end()) {
        entries.erase(entries.begin());
        g_stats.record_eviction();
    }
    entries[key] = value;
}

std::size_t Cache::size() {
    std::lock_guard<std::mutex> lk(mu);
    return entries.size();
}

void Stats::record_eviction() {
    std::lock_guard<std::mutex> lk(mu);
    evictions++;
}

void Stats::dump() {
    std::lock_guard<std::mutex> lk(mu);
    std::printf("evictions=%ld cache_entries=%zu\n", evictions, g_cache.size());
}

int main() {
    std::thread writer([] {
        g_cache.put("alpha", 1);
        g_cache.put("beta", 2);
        g_cache.put("gamma", 3);
    });
    std::thread reporter([] { g_stats.dump(); });
    writer.join();
    reporter.join();
    g_stats.dump();
    return 0;
}

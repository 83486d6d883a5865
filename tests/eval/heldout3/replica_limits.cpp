// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_limits,g_limits+4 W1@20:g_limits R2@25:g_limits R2@26:g_limits+4 W1@21:g_limits+4
// Autoscaler: a reload thread applies a new [min, max] replica range from the config; the scaler
// clamps its desired replica count into the range. Each bound is a std::atomic, but they are
// only valid as a pair: between the two stores the range is [6, 4].
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

struct Limits {
    std::atomic<int> min_replicas{1};
    std::atomic<int> max_replicas{4};
};

Limits g_limits;

void apply_config(int lo, int hi) {
    g_limits.min_replicas.store(lo);
    g_limits.max_replicas.store(hi);
}

int clamp_desired(int desired) {
    int lo = g_limits.min_replicas.load();
    int hi = g_limits.max_replicas.load();
    assert(lo <= hi && "replica range inverted");
    return std::clamp(desired, lo, hi);
}

int main() {
    int replicas = 2;
    std::thread reload([] { apply_config(6, 10); }); // scale-up window opens
    std::thread scaler([&replicas] {
        for (int i = 0; i < 2; i++)
            replicas = clamp_desired(replicas + 3);
    });
    reload.join();
    scaler.join();
    std::printf("replicas: %d\n", replicas);
    return 0;
}

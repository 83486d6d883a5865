// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_stats R1@20 W2@20 W1@20
// hit_counter.cpp - request statistics of a small HTTP handler, kept in relaxed atomics.
//
// Bug: record() increments `hits` with a separate load and store instead of fetch_add. Each is
// atomic, the pair is not: a concurrent increment between them is overwritten. `bytes` is
// updated correctly. The final report finds fewer hits than requests and exits with status 1.
#include <atomic>
#include <cstdio>
#include <thread>

struct Stats {
  std::atomic<long> hits{0};
  std::atomic<long> bytes{0};
};

Stats g_stats;

void record(long size) {
  g_stats.hits.store(g_stats.hits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  g_stats.bytes.fetch_add(size, std::memory_order_relaxed);
}

void serve(int requests, long size) {
  for (int i = 0; i < requests; i++) record(size);
}

int main() {
  std::thread a(serve, 2, 100);
  std::thread b(serve, 2, 250);
  a.join();
  b.join();
  const long hits = g_stats.hits.load();
  const long bytes = g_stats.bytes.load();
  std::printf("%ld hits, %ld bytes\n", hits, bytes);
  if (hits != 4) {
    std::fprintf(stderr, "stats: %ld hits recorded for 4 requests\n", hits);
    return 1;
  }
  return 0;
}

// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_buckets R1@36 W2@36 W1@36
// Per-client request counters for the access-log aggregator. The counters live in a small
// open table of 12 buckets; to keep the two ingest threads from serializing on one mutex the
// buckets are guarded by 8 stripe locks.
#include <array>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {

constexpr unsigned kBuckets = 12;
constexpr unsigned kStripes = 8;

struct Bucket {
  unsigned long requests = 0;
  unsigned long bytes = 0;
};

std::array<Bucket, kBuckets> g_buckets;
std::array<std::mutex, kStripes> g_stripes;

struct LogRecord {
  unsigned client_id;
  unsigned long bytes;
};

std::mutex& stripe_for(unsigned client_id) { return g_stripes[client_id % kStripes]; }
Bucket& bucket_for(unsigned client_id) { return g_buckets[client_id % kBuckets]; }

void account(const LogRecord& rec) {
  std::lock_guard<std::mutex> guard(stripe_for(rec.client_id));
  Bucket& b = bucket_for(rec.client_id);
  b.requests++;
  b.bytes += rec.bytes;
}

void ingest(const std::vector<LogRecord>& batch) {
  for (const LogRecord& rec : batch) account(rec);
}

}  // namespace

int main() {
  // Two shards of the same access log, parsed by two threads.
  const std::vector<LogRecord> shard_a = {{3, 512}, {40, 128}, {3, 2048}};
  const std::vector<LogRecord> shard_b = {{15, 64}, {7, 4096}, {15, 256}};

  std::thread ta(ingest, std::cref(shard_a));
  std::thread tb(ingest, std::cref(shard_b));
  ta.join();
  tb.join();

  unsigned long total = 0;
  for (const Bucket& b : g_buckets) total += b.requests;
  const unsigned long expected = shard_a.size() + shard_b.size();
  if (total != expected) {
    std::fprintf(stderr, "request count mismatch: counted %lu, log has %lu\n", total, expected);
    return 1;
  }
  std::printf("%lu requests accounted\n", total);
  return 0;
}

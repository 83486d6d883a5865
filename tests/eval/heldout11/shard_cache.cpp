// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_hot,g_cold lock1@44:g_hot lock2@30:g_cold lock2@36:g_hot lock1@45:g_cold
// ctrlsched-truth: cause g_hot,g_cold lock1@30:g_cold lock2@44:g_hot lock2@45:g_cold lock1@36:g_hot
#include <cassert>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

struct Shard {
  std::shared_mutex mu;
  std::unordered_map<int, std::string> items;
  int moved_in = 0;
};

Shard g_hot;
Shard g_cold;

class ShardCache {
 public:
  void put_cold(int key, std::string value) {
    std::unique_lock<std::shared_mutex> lk(g_cold.mu);
    g_cold.items[key] = std::move(value);
  }

  bool lookup(int key, std::string* out) {
    std::shared_lock<std::shared_mutex> cold(g_cold.mu);
    auto it = g_cold.items.find(key);
    if (it != g_cold.items.end()) {
      *out = it->second;
      return true;
    }
    std::shared_lock<std::shared_mutex> hot(g_hot.mu);
    auto jt = g_hot.items.find(key);
    if (jt == g_hot.items.end()) return false;
    *out = jt->second;
    return true;
  }

  int rebalance(int max_moves) {
    std::unique_lock<std::shared_mutex> hot(g_hot.mu);
    std::unique_lock<std::shared_mutex> cold(g_cold.mu);
    int moved = 0;
    for (auto it = g_cold.items.begin(); it != g_cold.items.end() && moved < max_moves;) {
      g_hot.items.emplace(it->first, std::move(it->second));
      it = g_cold.items.erase(it);
      ++moved;
    }
    g_hot.moved_in += moved;
    return moved;
  }
};

ShardCache g_cache;

static void reader(int first, int count, int* hits) {
  std::string v;
  for (int k = first; k < first + count; ++k) {
    if (g_cache.lookup(k, &v)) {
      assert(v == "item-" + std::to_string(k));
      ++*hits;
    }
  }
}

int main() {
  const int kKeys = 32;
  for (int k = 0; k < kKeys; ++k) g_cache.put_cold(k, "item-" + std::to_string(k));
  int hits = 0;
  int moved = 0;
  std::thread balancer([&moved] {
    for (int round = 0; round < 4; ++round) moved += g_cache.rebalance(kKeys / 4);
  });
  std::thread r(reader, 0, kKeys, &hits);
  balancer.join();
  r.join();
  assert(moved == kKeys);
  assert(hits == kKeys);
  std::printf("moved %d, %d hits\n", moved, hits);
  return 0;
}

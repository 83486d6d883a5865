// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_cache R1@19 W2@26 W1@26
// ctrlsched-truth: cause g_cache R1@19 W2@26 R1@26
// ctrlsched-truth: cause g_cache R1@19 W2@26 R1@24
// price_cache.cpp - a memoizing price cache shared by request threads.
// get() looks the SKU up under the lock, computes the price outside it (slow) and inserts it
// under the lock again, without looking again. Two threads that both miss insert the same SKU
// twice; the cache's own consistency check finds the duplicate.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

class PriceCache {
 public:
  int get(int sku) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      for (int i = 0; i < size_; i++)
        if (keys_[i] == sku) return prices_[i];
    }
    const int price = compute_price(sku);
    std::lock_guard<std::mutex> guard(mutex_);
    keys_[size_] = sku;
    prices_[size_] = price;
    size_++;
    return price;
  }

  bool consistent() {
    std::lock_guard<std::mutex> guard(mutex_);
    for (int i = 0; i < size_; i++)
      for (int j = i + 1; j < size_; j++)
        if (keys_[i] == keys_[j]) return false;
    return true;
  }

 private:
  static int compute_price(int sku) { return 100 + sku % 7; }

  std::mutex mutex_;
  int size_ = 0;
  int keys_[8] = {};
  int prices_[8] = {};
};

PriceCache g_cache;

int main() {
  int seen[2] = {0, 0};
  std::thread a([&seen] { seen[0] = g_cache.get(42); });
  std::thread b([&seen] { seen[1] = g_cache.get(42); });
  a.join();
  b.join();
  std::printf("prices %d %d\n", seen[0], seen[1]);
  assert(g_cache.consistent() && "duplicate cache entry");
  return 0;
}

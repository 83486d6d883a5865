// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause * R1@20 W2@21 W1@21
// Database connection pool with a lock-free fast path: a std::atomic counts
// the idle connections and try_checkout() leases one while the count is
// positive. The test and the decrement are two separate atomic operations, so
// two batch clients that both see the last idle connection both take it: the
// count drops below zero and more leases are handed out than the pool has.
// Three leases are taken before the last one, so the race is always in a
// later iteration of a client's loop.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

class ConnectionPool {
 public:
  explicit ConnectionPool(int size) : idle_(size), size_(size) {}

  bool try_checkout() {
    if (idle_.load(std::memory_order_acquire) > 0) {
      idle_.fetch_sub(1, std::memory_order_acq_rel);  // BUG: not one step with the test
      return true;
    }
    return false;
  }
  void checkin() { idle_.fetch_add(1, std::memory_order_acq_rel); }
  int idle() const { return idle_.load(std::memory_order_acquire); }
  int size() const { return size_; }

 private:
  std::atomic<int> idle_;
  const int size_;
};

constexpr int kPoolSize = 4;
constexpr int kAttempts = 3;

// A batch client leases what it can and keeps the leases until its batch ends.
struct BatchClient {
  ConnectionPool* pool;
  int leased = 0;

  void run() {
    for (int i = 0; i < kAttempts; ++i)
      if (pool->try_checkout()) ++leased;
  }
};

int main() {
  ConnectionPool pool(kPoolSize);
  BatchClient a{&pool}, b{&pool};
  std::thread ta(&BatchClient::run, &a);
  std::thread tb(&BatchClient::run, &b);
  ta.join();
  tb.join();
  int leased = a.leased + b.leased;
  std::printf("leased %d of %d, idle %d\n", leased, pool.size(), pool.idle());
  assert(pool.idle() >= 0 && leased <= pool.size());
  for (int i = 0; i < leased; ++i) pool.checkin();
  assert(pool.idle() == pool.size());
  return 0;
}

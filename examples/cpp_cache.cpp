// cpp_cache.cpp - a lazily filled cache whose lookup and insert are two locked scopes.
//
// What it does: two std::threads ask a Cache for the same key. On a miss, Cache::get builds the
//   (expensive) Resource outside the lock and then inserts it into a std::map.
// Bug: check-then-insert atomicity violation. The lookup (lines 31-35) and the insert
//   (lines 37-42) are separate critical sections, so both threads can miss, both build the
//   resource, and the second insert finds the key already present: the resource was
//   initialized twice and the two callers hold different objects for the same key.
// Root cause: lines 35-38 (the mutex is released between the miss and the insert).
// Failure: assertion `inserted && "resource for this key initialized twice"` (cpp_cache.cpp:40).
// Failing interleaving (sync points, 1 preemption):
//   T1: lock, miss, unlock, builds Resource | switch at T1's second std::mutex::lock
//   (pthread_mutex_lock, line 38) | T2: lock, miss, unlock, build, lock, insert, unlock, exit |
//   T1: lock, emplace finds the key -> inserted == false -> assertion fails.
// Reachable with: sync points.
// Fix: one critical section (check, build, insert), or std::call_once per entry.
#include <cassert>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

struct Resource {
  explicit Resource(int k) : key(k) {}  // imagine opening a file or a connection here
  int key;
};

class Cache {
 public:
  std::shared_ptr<Resource> get(int key) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      auto it = entries_.find(key);
      if (it != entries_.end()) return it->second;
    }
    auto fresh = std::make_shared<Resource>(key);  // built without holding the lock
    {
      std::lock_guard<std::mutex> guard(mutex_);
      auto [it, inserted] = entries_.emplace(key, fresh);
      assert(inserted && "resource for this key initialized twice");
      return it->second;
    }
  }

 private:
  std::mutex mutex_;
  std::map<int, std::shared_ptr<Resource>> entries_;
};

int main() {
  Cache cache;
  std::shared_ptr<Resource> a, b;
  std::thread t1([&] { a = cache.get(7); });
  std::thread t2([&] { b = cache.get(7); });
  t1.join();
  t2.join();
  assert(a == b && a->key == 7);  // both callers share one resource
  return 0;
}

// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_cache lock1@26 lock2@37 lock2@41 lock1@30
// lru_evict.cpp - a cache with a map of entries and a separate LRU list, each with its mutex.
//
// get() finds the entry under the map lock and then moves it to the front of the LRU list
// under the list lock. The evictor walks the LRU list under the list lock and removes the
// victim from the map under the map lock: the opposite order. A lookup and an eviction at the
// same time can each hold one lock and wait for the other.
#include <cstdio>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>

class LruCache {
 public:
  void put(const std::string& key, int value) {
    std::lock_guard<std::mutex> map_guard(map_mutex_);
    std::lock_guard<std::mutex> lru_guard(lru_mutex_);
    entries_[key] = value;
    lru_.push_front(key);
  }

  bool get(const std::string& key, int* value) {
    std::lock_guard<std::mutex> map_guard(map_mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return false;
    *value = it->second;
    std::lock_guard<std::mutex> lru_guard(lru_mutex_);
    lru_.remove(key);
    lru_.push_front(key);
    return true;
  }

  void evict_oldest() {
    std::lock_guard<std::mutex> lru_guard(lru_mutex_);
    if (lru_.empty()) return;
    std::string victim = lru_.back();
    lru_.pop_back();
    std::lock_guard<std::mutex> map_guard(map_mutex_);
    entries_.erase(victim);
  }

  size_t size() {
    std::lock_guard<std::mutex> map_guard(map_mutex_);
    return entries_.size();
  }

 private:
  std::mutex map_mutex_;
  std::mutex lru_mutex_;
  std::map<std::string, int> entries_;
  std::list<std::string> lru_;
};

LruCache g_cache;

int main() {
  g_cache.put("alpha", 1);
  g_cache.put("beta", 2);
  std::thread reader([] {
    int value = 0;
    g_cache.get("alpha", &value);
  });
  std::thread evictor([] { g_cache.evict_oldest(); });
  reader.join();
  evictor.join();
  std::printf("%zu entries left\n", g_cache.size());
  return 0;
}

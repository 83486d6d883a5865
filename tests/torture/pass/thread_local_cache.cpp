// A per-thread cache with a C++ thread_local object whose destructor flushes the thread's
// entries into a shared, mutex-protected map when the thread exits. Must pass every seed: all
// entries arrive, flushed by destructors that run at std::thread exit, before join returns.
#include <cassert>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace {

std::mutex flushed_lock;
std::map<int, int> flushed;

struct LocalCache {
  std::vector<int> keys;
  ~LocalCache() {
    std::lock_guard<std::mutex> guard(flushed_lock);
    for (int key : keys) flushed[key]++;
  }
};

thread_local LocalCache cache;

void work(int id) {
  for (int i = 0; i < 5; i++) cache.keys.push_back(id * 100 + i);
}

}  // namespace

int main() {
  std::vector<std::thread> threads;
  for (int id = 0; id < 4; id++) threads.emplace_back(work, id);
  for (auto& t : threads) t.join();
  std::lock_guard<std::mutex> guard(flushed_lock);
  assert(flushed.size() == 20);
  for (const auto& [key, count] : flushed) assert(count == 1);
  std::printf("%zu entries flushed by thread_local destructors\n", flushed.size());
  return 0;
}

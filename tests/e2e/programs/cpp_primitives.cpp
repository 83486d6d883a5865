// C++ standard library primitives under ctrlsched: std::async/std::future (and a promise set by
// another thread), std::shared_mutex (readers share, a writer excludes), std::call_once (once),
// std::condition_variable::wait_for in a predicate loop (tolerates timeouts), std::jthread.
// Notes "shared" when two readers held the shared_mutex together and "wait_for-timeout" when a
// wait_for returned on its timeout.
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

extern "C" {
#include "note.h"
}

namespace {

std::once_flag once;
int once_runs = 0;

std::shared_mutex table_mutex;
int table_value = 0;
std::mutex count_mutex;
int readers = 0, writers = 0;  // guarded by count_mutex

void read_table() {
  std::shared_lock lock(table_mutex);
  {
    std::lock_guard g(count_mutex);
    ++readers;
    assert(writers == 0);
    if (readers >= 2) note("shared");
  }
  const int seen = table_value;
  std::this_thread::yield();
  assert(table_value == seen);
  std::lock_guard g(count_mutex);
  --readers;
}

void write_table() {
  std::unique_lock lock(table_mutex);
  {
    std::lock_guard g(count_mutex);
    ++writers;
    assert(writers == 1 && readers == 0);
  }
  const int seen = table_value;
  std::this_thread::yield();
  table_value = seen + 1;
  std::lock_guard g(count_mutex);
  --writers;
}

std::mutex queue_mutex;
std::condition_variable queue_cv;
int items = 0;  // guarded by queue_mutex

}  // namespace

int main(int argc, char** argv) {
  note_init(argc, argv);
  auto get = [] {
    std::call_once(once, [] { ++once_runs; });
    read_table();
    return 7;
  };
  std::future<int> f1 = std::async(std::launch::async, get);
  std::future<int> f2 = std::async(std::launch::async, get);
  std::promise<int> promise;
  std::future<int> promised = promise.get_future();
  std::thread producer([&promise] {
    write_table();
    {
      std::lock_guard lock(queue_mutex);
      ++items;
    }
    queue_cv.notify_one();
    promise.set_value(11);
  });
  {
    std::unique_lock lock(queue_mutex);
    while (!queue_cv.wait_for(lock, std::chrono::milliseconds(5), [] { return items > 0; })) {
      note("wait_for-timeout");
    }
    assert(items == 1);
  }
  std::jthread reader([] { read_table(); });
  assert(f1.get() == 7);
  assert(f2.get() == 7);
  assert(promised.get() == 11);
  producer.join();
  reader.join();
  std::call_once(once, [] { ++once_runs; });
  assert(once_runs == 1);
  assert(table_value == 1);
  return 0;
}

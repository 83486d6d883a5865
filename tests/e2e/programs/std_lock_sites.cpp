// std_lock_sites.cpp - each std:: lock wrapper once, every call on a line marked "// site:".
// At -O2 they are inlined through two or three libstdc++ headers down to the pthread call
// (std::lock_guard -> std::mutex::lock -> __gthread_mutex_lock): the sync sites ctrlsched
// reports must still be these lines (lock_sites_test.cc). Passes every schedule.
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <thread>

std::mutex g_mutex;
std::shared_mutex g_shared;
std::condition_variable g_cond;
bool g_ready = false;
int g_value = 0;
std::atomic<int> g_notifications{0};

// A method that a std::thread lambda calls: GCC inlines it, with its lock_guard, into libstdc++'s
// _State_impl<...>::_M_run(), the ELF symbol at the site; the name reported is the method's.
class Tally {
 public:
  void add(int n) {
    std::lock_guard<std::mutex> guard(mutex_);  // site: lock_guard in a method a lambda calls
    total_ += n;
  }

 private:
  std::mutex mutex_;
  int total_ = 0;
};
Tally g_tally;

void producer() {
  {
    std::lock_guard<std::mutex> guard(g_mutex);  // site: lock_guard
    g_value += 1;
  }
  {
    std::unique_lock<std::shared_mutex> writer(g_shared);  // site: unique_lock of a shared_mutex
    g_value += 1;
  }
  {
    std::scoped_lock both(g_mutex);  // site: scoped_lock
    g_ready = true;
  }
  g_cond.notify_one();  // site: notify_one
  g_notifications.fetch_add(1);  // notify_one is then no tail call (lock_sites_test.cc)
}

void consumer() {
  g_mutex.lock();  // site: mutex.lock
  g_mutex.unlock();  // site: mutex.unlock
  {
    std::shared_lock<std::shared_mutex> reader(g_shared);  // site: shared_lock
  }
  std::unique_lock<std::mutex> lock(g_mutex);  // site: unique_lock
  g_cond.wait(lock, [] { return g_ready; });
  assert(g_value == 2);
}

// The threads run the functions above and main only starts and joins them: GCC optimizes main,
// run once, for size and keeps std::mutex::lock out of line there (lock_sites_test.cc).
int main() {
  std::thread a(producer);
  std::thread b(consumer);
  std::thread c([] { g_tally.add(1); });
  a.join();
  b.join();
  c.join();
  return 0;
}

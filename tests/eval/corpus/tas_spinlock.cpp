// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_lock R1@16 W2@17 W1@17
// tas_spinlock.cpp - a hand-written spinlock on a relaxed std::atomic<bool>.
//
// lock() waits until the flag is clear and then sets it: test and set are two atomic
// operations, not one exchange, so two threads can both see the lock free and both enter the
// critical section, which counts its occupants.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

class SpinLock {
 public:
  void lock() {
    while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
    locked_.store(true, std::memory_order_relaxed);
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

SpinLock g_lock;
int g_inside = 0;
long g_balance = 0;

void credit(long amount) {
  g_lock.lock();
  ++g_inside;
  assert(g_inside == 1 && "two threads inside the spinlock");
  g_balance += amount;
  --g_inside;
  g_lock.unlock();
}

int main() {
  std::thread a(credit, 10), b(credit, 20);
  a.join();
  b.join();
  std::printf("balance %ld\n", g_balance);
  return 0;
}

// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause * R1@26:done W2@21:done signal2@22:cv wait1@27:cv
// One-shot completion handle for a background job (a hand-rolled future):
// main starts a checksum job and blocks until the result is in.
// The job thread publishes its result through an atomic flag and notifies
// without taking the mutex, on the theory that the flag is atomic anyway. If
// it sets the flag and notifies after the waiter has tested the flag but before
// the waiter is blocked on the condition variable, the wakeup is lost and the
// waiter sleeps forever.
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

class Completion {
 public:
  void complete(long value) {
    value_ = value;
    done_.store(true, std::memory_order_release);
    cv_.notify_all();  // BUG: flag set and waiter notified without mu_
  }
  long wait() {
    std::unique_lock<std::mutex> lk(mu_);
    while (!done_.load(std::memory_order_acquire))
      cv_.wait(lk);
    return value_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> done_{false};
  long value_ = 0;
};

// Fletcher-style checksum of a block, the "job".
long checksum(const unsigned char* p, int n) {
  long a = 1, b = 0;
  for (int i = 0; i < n; ++i) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

int main() {
  unsigned char block[64];
  for (int i = 0; i < 64; ++i) block[i] = static_cast<unsigned char>(i * 7 + 3);
  const long expected = checksum(block, 64);

  Completion job_done;
  std::thread job([&] { job_done.complete(checksum(block, 64)); });
  long got = job_done.wait();
  job.join();
  std::printf("checksum %lx\n", got);
  assert(got == expected);
  return 0;
}

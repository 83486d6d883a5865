// ctrlsched-truth: class=condvar_check fails=assertion
// ctrlsched-truth: cause g_queue R1@24 W2@26 R1@25
// log_queue_cv.cpp - a log queue drained by two writer threads, fed by one producer.
//
// pop() waits on the condition variable with `if` instead of a loop. The producer wakes every
// waiter with notify_all; the first writer takes the only message and the second pops an empty
// queue (the queue's underflow assertion).
#include <cassert>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

class LogQueue {
 public:
  void push(int message) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_[count_++] = message;
    ready_.notify_all();
  }

  int pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (count_ == 0) ready_.wait(lock);
    assert(count_ > 0 && "popped an empty log queue");
    int item = items_[--count_];
    return item;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  int items_[8] = {};
  int count_ = 0;
};

LogQueue g_queue;

int main() {
  int written[2] = {0, 0};
  std::thread w1([&written] { written[0] = g_queue.pop(); });
  std::thread w2([&written] { written[1] = g_queue.pop(); });
  g_queue.push(1);
  g_queue.push(2);
  w1.join();
  w2.join();
  std::printf("wrote messages %d and %d\n", written[0], written[1]);
  return 0;
}

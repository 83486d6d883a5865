// ctrlsched-truth: class=lost_update fails=exit
// ctrlsched-truth: cause g_ring R1@16 W2@19 W1@19
// mpsc_ring.cpp - a single-producer ring buffer that two producer threads share.
//
// push() is correct for one producer: it reads head, fills the slot and publishes head + 1.
// With two producers both can read the same head, write the same slot and publish the same
// index: one message is lost, and the consumer's sum is short.
#include <atomic>
#include <cstdio>
#include <thread>

template <unsigned N>
class Ring {
 public:
  bool push(int value) {
    const unsigned head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) == N) return false;
    slots_[head % N] = value;
    head_.store(head + 1, std::memory_order_release);
    return true;
  }

  bool pop(int& value) {
    const unsigned tail = tail_.load(std::memory_order_relaxed);
    if (tail == head_.load(std::memory_order_acquire)) return false;
    value = slots_[tail % N];
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }

 private:
  int slots_[N] = {};
  std::atomic<unsigned> head_{0};
  std::atomic<unsigned> tail_{0};
};

Ring<8> g_ring;

void producer(int first) {
  for (int i = 0; i < 2; i++) g_ring.push(first + i);
}

int main() {
  std::thread a(producer, 1), b(producer, 10);
  a.join();
  b.join();
  int sum = 0, received = 0;
  for (int value; g_ring.pop(value); received++) sum += value;
  std::printf("received %d messages, sum %d\n", received, sum);
  return received == 4 && sum == 1 + 2 + 10 + 11 ? 0 : 1;
}

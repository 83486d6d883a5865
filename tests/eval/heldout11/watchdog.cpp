// ctrlsched-truth: class=order_violation fails=hang
// ctrlsched-truth: cause g_watchdog,g_watchdog+4 W1@13:g_watchdog+4 W1@15:g_watchdog W2@18:g_watchdog+4 W2@19:g_watchdog R3@24:g_watchdog R3@25:g_watchdog+4
// ctrlsched-truth: cause g_watchdog,g_watchdog+4 W1@13:g_watchdog+4 W2@18:g_watchdog+4 W1@13:g_watchdog+4 W1@15:g_watchdog W2@19:g_watchdog R3@24:g_watchdog R3@25:g_watchdog+4
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>

class Watchdog {
 public:
  explicit Watchdog(int target) : target_(target) {}

  void heartbeat() { beats_.fetch_add(1, std::memory_order_relaxed); }

  void finish() { done_.store(true, std::memory_order_release); }

  void reset() {
    beats_.store(0, std::memory_order_relaxed);
    done_.store(false, std::memory_order_release);
    resets_.fetch_add(1, std::memory_order_relaxed);
  }

  bool expired() const {
    if (done_.load(std::memory_order_acquire)) return true;
    return beats_.load(std::memory_order_relaxed) >= target_;
  }

  long watch() {
    long polls = 0;
    while (!expired()) {
      ++polls;
      std::this_thread::yield();
    }
    return polls;
  }

  int beats() const { return beats_.load(std::memory_order_relaxed); }
  int resets() const { return resets_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> done_{false};
  std::atomic<int> beats_{0};
  std::atomic<int> resets_{0};
  int target_;
};

constexpr int kBeats = 48;
Watchdog g_watchdog(kBeats);
unsigned long g_checksum = 0;

static unsigned long crunch(unsigned long seed, int step) {
  unsigned long h = seed ^ (0x9e3779b97f4a7c15UL * static_cast<unsigned long>(step + 1));
  for (int i = 0; i < 64; ++i) h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9UL;
  return h;
}

static void job() {
  unsigned long h = 17;
  for (int step = 0; step < kBeats; ++step) {
    h = crunch(h, step);
    g_watchdog.heartbeat();
  }
  g_checksum = h;
  g_watchdog.finish();
}

static void on_reconnect() {
  g_watchdog.reset();
}

int main() {
  long polls = 0;
  std::thread watcher([&polls] { polls = g_watchdog.watch(); });
  std::thread link(on_reconnect);
  std::thread worker(job);
  watcher.join();
  link.join();
  worker.join();
  assert(g_watchdog.resets() == 1);
  std::printf("watchdog released after %ld polls, %d beats, checksum %lx\n", polls,
              g_watchdog.beats(), g_checksum);
  return 0;
}

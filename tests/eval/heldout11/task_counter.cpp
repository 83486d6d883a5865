// ctrlsched-truth: class=lost_update fails=assertion
// ctrlsched-truth: cause g_tracker R1@21 W2@22 W1@22
// ctrlsched-truth: cause g_tracker R1@26 W2@27 W1@27
// ctrlsched-truth: cause g_tracker R1@21 W2@27 W1@22
// ctrlsched-truth: cause g_tracker R1@26 W2@22 W1@27
#include <atomic>
#include <cassert>
#include <cstdio>
#include <thread>
#include <vector>

struct Task {
  int id;
  int cost;
  long result;
};

class TaskTracker {
 public:
  void submitted() {
    int n = pending_.load(std::memory_order_relaxed);
    pending_.store(n + 1, std::memory_order_relaxed);
  }

  void completed() {
    int n = pending_.load(std::memory_order_relaxed);
    pending_.store(n - 1, std::memory_order_relaxed);
  }

  int pending() const { return pending_.load(std::memory_order_acquire); }

 private:
  std::atomic<int> pending_{0};
};

TaskTracker g_tracker;

static long run_task(const Task& t) {
  long acc = t.id;
  for (int i = 0; i < t.cost; ++i) acc = acc * 31 + i;
  return acc;
}

static void worker(int wid, int ntasks, long* sum) {
  std::vector<Task> batch;
  batch.reserve(ntasks);
  for (int i = 0; i < ntasks; ++i) {
    batch.push_back(Task{wid * 1000 + i, 8 + (i % 5), 0});
    g_tracker.submitted();
  }
  for (Task& t : batch) {
    t.result = run_task(t);
    g_tracker.completed();
  }
  long s = 0;
  for (const Task& t : batch) s += t.result;
  *sum = s;
}

int main() {
  const int kWorkers = 3;
  const int kTasks = 40;
  std::vector<long> sums(kWorkers, 0);
  std::vector<std::thread> threads;
  for (int w = 0; w < kWorkers; ++w) threads.emplace_back(worker, w, kTasks, &sums[w]);
  for (auto& t : threads) t.join();
  int left = g_tracker.pending();
  if (left != 0) std::fprintf(stderr, "pending count drifted to %d\n", left);
  assert(left == 0);
  long total = 0;
  for (long s : sums) total += s;
  std::printf("all tasks done, checksum %ld\n", total);
  return 0;
}

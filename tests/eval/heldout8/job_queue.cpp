// ctrlsched-truth: class=condvar_check fails=assertion
// ctrlsched-truth: cause g_jobs wait1@32 W2@25 signal2@26 W3@35 R1@33
// ctrlsched-truth: cause g_jobs wait1@32 wait2@32 W3@25 signal3@26 W2@35 R1@33
//
// job_queue.cpp - a bounded job queue; the main thread produces jobs and two
// worker threads consume them.  Bug: BoundedQueue::pop() waits with `if`
// instead of a loop.  notify_all() wakes a waiting worker, but the other worker
// can take the job before the woken one gets the mutex back, and the woken one
// then pops from an empty queue (the assert in pop()).
#include <cassert>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : capacity_(capacity) {}

  void push(int job) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_full_.wait(lock, [this] { return items_.size() < capacity_; });
    items_.push_back(job);
    not_empty_.notify_all();
  }

  int pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (items_.empty())  // push() notifies after every job, one wait is enough
      not_empty_.wait(lock);
    assert(!items_.empty() && "pop() on an empty queue");
    int job = items_.front();
    items_.pop_front();
    not_full_.notify_one();
    return job;
  }

 private:
  std::mutex mutex_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::deque<int> items_;
  std::size_t capacity_;
};

constexpr int kJobsPerWorker = 20;
BoundedQueue g_jobs(64);

// A job is rendered into the worker's scratch buffer; the worker adds up the
// job ids it has finished so main can check nothing was lost.
void worker(long* checksum) {
  std::vector<unsigned char> scratch(256 * 1024);
  for (int i = 0; i < kJobsPerWorker; ++i) {
    int job = g_jobs.pop();
    unsigned sum = 0;
    for (std::size_t k = 0; k < 4096; ++k) {
      scratch[k] = static_cast<unsigned char>(job * 31 + k);
      sum += scratch[k];
    }
    if (sum != 0) *checksum += job;
  }
}

int main() {
  long sums[2] = {0, 0};
  std::thread a(worker, &sums[0]);
  std::thread b(worker, &sums[1]);
  for (int job = 1; job <= 2 * kJobsPerWorker; ++job) g_jobs.push(job);
  a.join();
  b.join();
  long expected = 2L * kJobsPerWorker * (2 * kJobsPerWorker + 1) / 2;
  return sums[0] + sums[1] == expected ? 0 : 1;
}

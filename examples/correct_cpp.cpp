// correct_cpp.cpp - a correct C++ program using std::call_once, a job queue with
// std::condition_variable::wait_for, std::shared_mutex and std::async.
//
// What it does: main queues JOBS jobs for two worker std::threads, then closes the queue. The
//   workers wait for work with wait_for + predicate in a loop that tolerates timeouts and
//   spurious wakeups, read a setting that std::call_once loads exactly once, and publish each
//   result as a (job, result) pair under the unique lock of a std::shared_mutex. An auditor
//   started with std::async(std::launch::async) checks the pair under a shared lock.
// Correct: must never fail, under any interleaving, whatever timeouts or spurious wakeups the
//   scheduler picks (every wait sits in a loop that re-checks its predicate).
// Root cause: none. Failure: none expected (any failure is a bug in the tool).
// Reachable with: - (expected outcome: pass with sync points and with access points)
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <shared_mutex>
#include <thread>

constexpr int kJobs = 3;

std::once_flag settings_once;
int factor = 0, loads = 0;  // written once, inside call_once
int get_factor() {
  std::call_once(settings_once, [] { ++loads, factor = 3; });
  return factor;
}

std::mutex queue_mutex;
std::condition_variable queue_cv;
std::deque<int> jobs;  // guarded by queue_mutex
bool closed = false;   // guarded by queue_mutex

std::shared_mutex results_mutex;
int last_job = 0, last_result = 0, done = 0, sum = 0;  // guarded by results_mutex

void worker() {
  const int f = get_factor();
  for (;;) {
    int job;
    {
      std::unique_lock lock(queue_mutex);
      // wait_for returns false on a timeout with the predicate still false: just wait again.
      while (!queue_cv.wait_for(lock, std::chrono::milliseconds(20),
                                [] { return !jobs.empty() || closed; })) {
      }
      if (jobs.empty()) return;  // closed and drained
      job = jobs.front();
      jobs.pop_front();
    }
    std::unique_lock lock(results_mutex);
    last_job = job, last_result = job * f, ++done, sum += job * f;
  }
}

int main() {
  std::thread t1(worker), t2(worker);
  std::future<int> audit = std::async(std::launch::async, [] {
    const int f = get_factor();
    std::shared_lock lock(results_mutex);
    assert(last_result == last_job * f && done <= kJobs);
    return f;
  });
  for (int j = 1; j <= kJobs; j++) {
    {
      std::lock_guard lock(queue_mutex);
      jobs.push_back(j);
    }
    queue_cv.notify_one();
  }
  {
    std::lock_guard lock(queue_mutex);
    closed = true;
  }
  queue_cv.notify_all();
  t1.join();
  t2.join();
  assert(audit.get() == 3);
  std::shared_lock lock(results_mutex);
  assert(loads == 1 && done == kJobs && sum == 3 * (1 + 2 + 3));
  return 0;
}

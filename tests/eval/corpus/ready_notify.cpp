// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_ready signal1@22 wait2@32
// ready_notify.cpp - main starts a worker and waits for its "ready" notification.
//
// main waits on the condition variable without a predicate. If the worker notifies before main
// has started waiting, the notification is lost and main waits forever while the worker waits
// for work: a deadlock.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex g_mutex;
std::condition_variable g_ready;
std::condition_variable g_work;
int g_job = 0;

void worker() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
  }
  g_ready.notify_one();
  std::unique_lock<std::mutex> lock(g_mutex);
  while (g_job == 0) g_work.wait(lock);
  std::printf("worker got job %d\n", g_job);
}

int main() {
  std::thread t(worker);
  {
    std::unique_lock<std::mutex> lock(g_mutex);
    g_ready.wait(lock);
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_job = 7;
  }
  g_work.notify_one();
  t.join();
  return 0;
}

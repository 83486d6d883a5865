// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_flushed,g_flush_cv R1@36:g_flushed W2@30:g_flushed signal2@31:g_flush_cv wait1@37:g_flush_cv
//
// shutdown_flush.cpp - at shutdown the main thread hands the buffered log lines
// to a background flusher and waits until they have been written out.
// Bug: the flusher sets the std::atomic<bool> g_flushed and notifies without
// holding g_flush_mutex.  If that happens after main has checked the flag but
// before it has started waiting, the notification is lost and main waits
// forever.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

std::vector<std::string> g_pending;  // filled by main before the flusher starts
std::atomic<bool> g_flushed{false};
std::mutex g_flush_mutex;
std::condition_variable g_flush_cv;
unsigned long g_bytes_written = 0;

void flusher() {
  std::string batch;  // gather everything so it goes out in one write
  for (const std::string& line : g_pending) {
    batch += line;
    batch += '\n';
  }
  g_bytes_written = batch.size();  // stand-in for write(2) of the batch
  g_flushed = true;  // set without g_flush_mutex: a waiter may miss it
  g_flush_cv.notify_one();
}

void wait_until_flushed() {
  std::unique_lock<std::mutex> lock(g_flush_mutex);
  while (!g_flushed)
    g_flush_cv.wait(lock);
}

int main() {
  for (int i = 0; i < 200; ++i)
    g_pending.push_back("request " + std::to_string(i) + " served");
  std::thread t(flusher);
  wait_until_flushed();
  t.join();
  return g_bytes_written > 0 ? 0 : 1;
}

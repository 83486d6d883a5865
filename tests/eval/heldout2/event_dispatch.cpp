// ctrlsched-truth: class=order_violation fails=signal
// ctrlsched-truth: cause g_dispatcher R1@63 W2@44
// Event dispatcher of the plugin host: events are queued by any thread and delivered in
// batches, in order, to one sink on the dispatcher's own thread. post() never blocks on
// delivery, so the host announces itself first and wires up the UI's sink afterwards.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

namespace {

struct Event { int id; };

class Sink {
 public:
  virtual ~Sink() = default;
  virtual void on_event(const Event& e) = 0;
};

class CountingSink : public Sink {
 public:
  void on_event(const Event& e) override { last_ = e.id; delivered_.fetch_add(1); }
  int delivered() const { return delivered_.load(); }
  int last() const { return last_; }

 private:
  std::atomic<int> delivered_{0};
  int last_ = 0;
};

class Dispatcher {
 public:
  void post(Event e) {
    { std::lock_guard<std::mutex> lock(mu_); queue_.push_back(e); }
    cv_.notify_one();
  }
  void start() { worker_ = std::thread([this] { run(); }); }
  void set_sink(Sink* sink) {
    std::lock_guard<std::mutex> lock(mu_);
    sink_ = sink;
  }
  void stop() {
    { std::lock_guard<std::mutex> lock(mu_); stopping_ = true; }
    cv_.notify_one();
    worker_.join();
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything was delivered
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::microseconds(300));  // let a batch build up
      lock.lock();
      std::deque<Event> batch;
      batch.swap(queue_);
      Sink* sink = sink_;
      lock.unlock();
      for (const Event& e : batch) sink->on_event(e);
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Event> queue_;
  Sink* sink_ = nullptr;
  bool stopping_ = false;
  std::thread worker_;
};

Dispatcher g_dispatcher;
}  // namespace

int main() {
  g_dispatcher.start();
  g_dispatcher.post({1});  // "host ready": plugins may now talk to the host
  CountingSink sink;       // the UI's sink, created once the host is up
  g_dispatcher.set_sink(&sink);
  g_dispatcher.post({2});
  g_dispatcher.stop();
  std::printf("sink got %d events, last %d\n", sink.delivered(), sink.last());
  return sink.delivered() == 2 && sink.last() == 2 ? 0 : 1;
}

// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_bus,g_audit lock1@33:g_bus lock2@54:g_audit lock2@29:g_bus lock1@50:g_audit
// ctrlsched-truth: cause g_bus,g_audit lock1@54:g_audit lock2@33:g_bus lock2@50:g_audit lock1@29:g_bus
// In-process event bus. publish() holds the bus lock while it calls every
// subscriber, and the audit-log subscriber takes its own lock in the callback.
// AuditLog::close() takes its own lock and, still holding it, calls back into
// the bus to unsubscribe. A publisher and a closer that run at the same time
// take the two locks in opposite orders and block each other forever.
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

class Subscriber {
 public:
  virtual ~Subscriber() = default;
  virtual void on_event(int code) = 0;
};

class EventBus {
 public:
  void subscribe(Subscriber* s) {
    std::lock_guard<std::mutex> lk(mu_);
    subs_.push_back(s);
  }
  void unsubscribe(Subscriber* s) {
    std::lock_guard<std::mutex> lk(mu_);
    subs_.erase(std::remove(subs_.begin(), subs_.end(), s), subs_.end());
  }
  void publish(int code) {
    std::lock_guard<std::mutex> lk(mu_);
    for (Subscriber* s : subs_) s->on_event(code);
  }
  size_t subscribers() {
    std::lock_guard<std::mutex> lk(mu_);
    return subs_.size();
  }

 private:
  std::mutex mu_;
  std::vector<Subscriber*> subs_;
};

class AuditLog : public Subscriber {
 public:
  explicit AuditLog(EventBus* bus) : bus_(bus) { bus_->subscribe(this); }
  void on_event(int code) override {
    std::lock_guard<std::mutex> lk(mu_);
    if (!closed_) sum_ += code;
  }
  void close() {
    std::lock_guard<std::mutex> lk(mu_);
    closed_ = true;
    bus_->unsubscribe(this);  // BUG: calls into the bus with mu_ held
  }
  bool closed() {
    std::lock_guard<std::mutex> lk(mu_);
    return closed_;
  }

 private:
  std::mutex mu_;
  EventBus* bus_;
  bool closed_ = false;
  int sum_ = 0;
};

EventBus g_bus;
AuditLog g_audit(&g_bus);

int main() {
  std::thread publisher([] {
    for (int code = 1; code <= 3; ++code) g_bus.publish(code);
  });
  std::thread closer([] { g_audit.close(); });
  publisher.join();
  closer.join();
  assert(g_audit.closed() && g_bus.subscribers() == 0);
  std::printf("audit log closed, bus empty\n");
  return 0;
}

// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause * R1@38 W2@43 W1@43
// Per-endpoint request metrics: a counter is created the first time a request
// for its endpoint is seen and then shared by every front-end thread. A lookup
// takes the shared lock; on a miss it drops it, takes the unique lock and
// creates the counter -- without looking again. Two threads that miss on the
// same endpoint each install a counter, the later one replaces the earlier,
// and the requests counted through the replaced counter are lost.
#include <atomic>
#include <cassert>
#include <cstdio>
#include <iterator>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

enum Endpoint { kLogin, kSearch, kCart, kCheckout, kHealth, kNumEndpoints };

class Counter {
 public:
  void add(long n) { value_.fetch_add(n, std::memory_order_relaxed); }
  long value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<long> value_{0};
};

class MetricsRegistry {
 public:
  ~MetricsRegistry() {
    for (Counter* c : slots_) delete c;
  }

  Counter* counter(Endpoint ep) {
    {
      std::shared_lock<std::shared_mutex> rd(mu_);
      Counter* found = slots_[ep];
      if (found != nullptr) return found;
    }
    std::unique_lock<std::shared_mutex> wr(mu_);
    Counter* created = new Counter();  // BUG: slots_[ep] is not checked again
    slots_[ep] = created;
    return created;
  }

 private:
  std::shared_mutex mu_;
  Counter* slots_[kNumEndpoints] = {};
};

struct RequestLog {
  const Endpoint* requests;
  int count;
};

constexpr Endpoint kWeb[] = {kCheckout, kCheckout};
constexpr Endpoint kApp[] = {kLogin, kSearch, kCart, kCheckout};
constexpr Endpoint kProbe[] = {kHealth, kHealth, kHealth};

void serve(MetricsRegistry* reg, RequestLog log) {
  std::vector<Endpoint> pending(log.requests, log.requests + log.count);
  for (Endpoint ep : pending) reg->counter(ep)->add(1);
}

int main() {
  MetricsRegistry reg;
  std::thread web(serve, &reg, RequestLog{kWeb, std::size(kWeb)});
  std::thread app(serve, &reg, RequestLog{kApp, std::size(kApp)});
  std::thread probe(serve, &reg, RequestLog{kProbe, std::size(kProbe)});
  web.join();
  app.join();
  probe.join();
  long checkout = reg.counter(kCheckout)->value();
  long health = reg.counter(kHealth)->value();
  std::printf("checkout=%ld health=%ld\n", checkout, health);
  assert(checkout == 3 && health == 3);
  assert(reg.counter(kLogin)->value() == 1 && reg.counter(kCart)->value() == 1);
  return 0;
}

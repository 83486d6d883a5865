// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_registry R1@25 W2@34 W1@34
// Topic subscriptions of the notification hub. subscribe() is meant to be idempotent: a client
// that reconnects re-sends its subscriptions, and may do so while the original request is still
// being processed on another thread. Lookups are far more frequent than changes, hence the
// reader/writer lock.
#include <array>
#include <cassert>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

namespace {

struct Subscription {
  int client;
  int topic;
};

class SubscriptionRegistry {
 public:
  bool contains(int client, int topic) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (int i = 0; i < count_; ++i)
      if (subs_[i].client == client && subs_[i].topic == topic) return true;
    return false;
  }

  void subscribe(int client, int topic) {
    if (contains(client, topic)) return;  // already subscribed: nothing to do
    std::unique_lock<std::shared_mutex> lock(mu_);
    assert(count_ < static_cast<int>(subs_.size()));
    subs_[count_++] = Subscription{client, topic};
  }

  // Calls deliver(client) once per subscriber of the topic.
  template <typename F>
  void publish(int topic, F deliver) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (int i = 0; i < count_; ++i)
      if (subs_[i].topic == topic) deliver(subs_[i].client);
  }

 private:
  mutable std::shared_mutex mu_;
  std::array<Subscription, 16> subs_{};
  int count_ = 0;
};

SubscriptionRegistry g_registry;
constexpr int kAlerts = 7;

}  // namespace

int main() {
  g_registry.subscribe(/*client=*/100, kAlerts);

  // Client 200's original request and its retry after a reconnect.
  std::thread original([] { g_registry.subscribe(200, kAlerts); });
  std::thread retry([] { g_registry.subscribe(200, kAlerts); });
  original.join();
  retry.join();

  std::array<int, 2> received{};
  g_registry.publish(kAlerts, [&](int client) {
    int& n = received[client == 100 ? 0 : 1];
    ++n;
    assert(n == 1 && "alert delivered twice to the same client");
  });
  std::printf("alert delivered to %d + %d clients\n", received[0], received[1]);
  return 0;
}

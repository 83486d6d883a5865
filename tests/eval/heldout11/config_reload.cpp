// ctrlsched-truth: class=double_checked_locking fails=assertion
// ctrlsched-truth: cause g_store,g_store+4 W1@39:g_store R2@20:g_store R2@55:g_store+4 W1@40:g_store+4
// ctrlsched-truth: cause g_store,g_store+8 W1@39:g_store R2@20:g_store R2@56:g_store+8 W1@41:g_store+8
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

struct Config {
  int port = 0;
  int timeout_ms = 0;
  int workers = 0;
};

class ConfigStore {
 public:
  const Config* get() {
    if (!loaded_) {
      std::lock_guard<std::mutex> lk(mu_);
      if (!loaded_) load();
    }
    return &cfg_;
  }

  int lookup(const char* key, int fallback) {
    if (!loaded_) get();
    const char* v = std::getenv(key);
    if (v == nullptr || *v == '\0') return fallback;
    return std::atoi(v);
  }

  int loads() const { return loads_; }

 private:
  void load() {
    ++loads_;
    loaded_ = true;
    cfg_.port = lookup("SVC_PORT", 8080);
    cfg_.timeout_ms = lookup("SVC_TIMEOUT_MS", 2500);
    cfg_.workers = lookup("SVC_WORKERS", 4);
  }

  bool loaded_ = false;
  Config cfg_;
  int loads_ = 0;
  std::mutex mu_;
};

ConfigStore g_store;

static void serve(int id, int* out) {
  const Config* c = g_store.get();
  int port = c->port;
  int timeout = c->timeout_ms;
  if (port == 0 || timeout == 0) {
    std::fprintf(stderr, "worker %d saw port=%d timeout=%d\n", id, port, timeout);
  }
  assert(port > 0);
  assert(timeout > 0);
  *out = port + timeout;
}

int main() {
  const int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> results(kThreads, 0);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back(serve, i, &results[i]);
  }
  for (auto& t : threads) t.join();
  assert(g_store.loads() == 1);
  for (int r : results) assert(r == results[0]);
  std::printf("config ok: %d loads\n", g_store.loads());
  return 0;
}

// ctrlsched-truth: class=order_violation fails=exit
// ctrlsched-truth: cause * W1@22 R2@29 R2@31 W1@23
// config_publish.cpp - a loader thread parses the configuration and publishes it to the
// request handler through an atomic pointer.
//
// The pointer is published with release ordering, which would be right if it came last; the
// loader publishes it first and fills in the fields afterwards. A handler that picks up the
// pointer in between uses a timeout of 0 and rejects the request.
#include <atomic>
#include <cstdio>
#include <thread>

struct Config {
  int timeout_ms = 0;
  int retries = 0;
};

std::atomic<Config*> g_config{nullptr};

void load_config() {
  Config* config = new Config();
  g_config.store(config, std::memory_order_release);
  config->timeout_ms = 250;
  config->retries = 3;
}

int handle_request() {
  Config* config;
  while ((config = g_config.load(std::memory_order_acquire)) == nullptr)
    std::this_thread::yield();
  if (config->timeout_ms <= 0) {
    std::fprintf(stderr, "handler: no timeout configured, rejecting request\n");
    return 1;
  }
  return 0;
}

int main() {
  int status = 0;
  std::thread loader(load_config);
  std::thread handler([&status] { status = handle_request(); });
  loader.join();
  handler.join();
  delete g_config.load();
  return status;
}

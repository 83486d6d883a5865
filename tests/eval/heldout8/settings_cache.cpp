// ctrlsched-truth: class=double_checked_locking fails=assertion
// ctrlsched-truth: cause g_settings W1@33 R2@30
// ctrlsched-truth: cause * R1@43 W2@35
//
// settings_cache.cpp - process-wide server settings, parsed lazily on first use.
// Two request handlers ask for the settings; whichever gets there first builds
// them.  Bug: the double-checked lazy init publishes the new Settings object
// through a plain pointer *before* its fields are filled in, so the other
// handler can pass the unlocked fast-path check, read max_clients == 0 and trip
// its assertion.
#include <cassert>
#include <cstdlib>
#include <mutex>
#include <thread>

struct Settings {
  int listen_port = 0;
  int max_clients = 0;
};

Settings* g_settings = nullptr;
std::mutex g_settings_mutex;

static int env_int(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : fallback;
}

const Settings& settings() {
  if (g_settings == nullptr) {  // fast path: no lock once initialised
    std::lock_guard<std::mutex> guard(g_settings_mutex);
    if (g_settings == nullptr) {
      g_settings = new Settings();
      g_settings->listen_port = env_int("SVC_PORT", 8080);
      g_settings->max_clients = env_int("SVC_MAX_CLIENTS", 64);
    }
  }
  return *g_settings;
}

void handle_requests(int handler_id, int* accepted) {
  const Settings& s = settings();
  assert(s.max_clients > 0 && "settings used before they were loaded");
  int slots = s.max_clients / 2;  // each handler owns half of the client slots
  for (int client = 0; client < slots; ++client)
    if ((client + handler_id) % 4 != 0) ++accepted[handler_id];
}

int main() {
  int accepted[2] = {0, 0};
  std::thread first(handle_requests, 0, accepted);
  std::thread second(handle_requests, 1, accepted);
  first.join();
  second.join();
  return accepted[0] + accepted[1] > 0 ? 0 : 1;
}

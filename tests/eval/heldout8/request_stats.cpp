// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_counters R1@28 R2@28 W1@37 R2@37
// ctrlsched-truth: cause g_counters R1@28 R2@28 W2@37 R1@37
//
// request_stats.cpp - per-client request counters for a small HTTP front end.
// Each worker looks up (or creates) the counter of the client it served and
// bumps it.  Bug: get_or_create() looks the client up in one critical section
// and inserts in another, so two workers can both miss, both create a counter,
// and the later insert replaces the earlier one; the hits already counted on
// the replaced counter are lost and main's total check fails.
#include <atomic>
#include <cassert>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

struct ClientStats {
  std::atomic<int> hits{0};
};

std::map<std::uint32_t, std::shared_ptr<ClientStats>> g_counters;  // by IPv4 address
std::mutex g_counters_mutex;

std::shared_ptr<ClientStats> find_stats(std::uint32_t client) {
  std::lock_guard<std::mutex> guard(g_counters_mutex);
  auto it = g_counters.find(client);
  if (it == g_counters.end()) return nullptr;
  return it->second;
}

std::shared_ptr<ClientStats> get_or_create(std::uint32_t client) {
  if (auto existing = find_stats(client)) return existing;
  auto created = std::make_shared<ClientStats>();
  std::lock_guard<std::mutex> guard(g_counters_mutex);
  g_counters[client] = created;
  return created;
}

void serve(std::uint32_t client, int requests) {
  for (int i = 0; i < requests; ++i) get_or_create(client)->hits.fetch_add(1);
}

int main() {
  const std::uint32_t client = 0x0a010416;  // 10.1.4.22
  const int per_worker = 50;
  std::thread w1(serve, client, per_worker);
  std::thread w2(serve, client, per_worker);
  w1.join();
  w2.join();
  int total = find_stats(client)->hits.load();
  assert(total == 2 * per_worker && "request hits were lost");
  return 0;
}

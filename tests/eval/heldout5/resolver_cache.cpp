// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_size R1@30 R2@30 W1@49 W2@49
// ctrlsched-truth: cause g_size R1@30 R2@30 W2@49 W1@49
// A name-resolver cache: lookups search the table under the shared lock; on a miss the name is
// resolved and appended under the exclusive lock. Each name should be resolved once.
#include <cassert>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <thread>

constexpr int kSlots = 8;

const char* g_names[kSlots];
int g_addrs[kSlots];
int g_size = 0;
int g_resolves = 0;
std::shared_mutex g_cache_mu;

// The slow path: stands in for asking the upstream resolver.
static int resolve(const char* name) {
  unsigned h = 2166136261u;
  for (const char* p = name; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
  return static_cast<int>(h & 0xffffff);
}

// The caller holds g_cache_mu, shared or exclusive.
static int find(const char* name) {
  for (int i = 0; i < g_size; ++i) {
    if (std::strcmp(g_names[i], name) == 0) return g_addrs[i];
  }
  return -1;
}

static int lookup(const char* name) {
  {
    std::shared_lock<std::shared_mutex> rd(g_cache_mu);
    int hit = find(name);
    if (hit >= 0) return hit;
  }
  int addr = resolve(name);
  std::unique_lock<std::shared_mutex> wr(g_cache_mu);
  int slot = g_size;
  assert(slot < kSlots);
  g_names[slot] = name;
  g_addrs[slot] = addr;
  ++g_resolves;
  g_size = slot + 1;
  return addr;
}

static void client(int* out) {
  out[0] = lookup("db.internal");
  out[1] = lookup("queue.internal");
}

int main() {
  int a[2], b[2];
  std::thread t1(client, a);
  std::thread t2(client, b);
  t1.join();
  t2.join();
  assert(a[0] == b[0] && a[1] == b[1]);
  assert(g_resolves == 2);
  std::printf("%d names cached, %d resolves\n", g_size, g_resolves);
  return 0;
}

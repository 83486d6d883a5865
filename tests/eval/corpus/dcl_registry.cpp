// ctrlsched-truth: class=double_checked_locking fails=exit
// ctrlsched-truth: cause g_registry W1@26 R2@23
// ctrlsched-truth: cause * R1@37 W2@28
// ctrlsched-truth: cause * W1@26 R2@37 W1@28
// dcl_registry.cpp - a lazily built, double-checked singleton of status codes.
//
// registry() skips the lock when the pointer is set. The slow path publishes the pointer
// before it fills in the object, so a thread on the fast path can use a registry whose table
// is still empty: its checksum comes out 0 and the program exits with status 1.
#include <cstdio>
#include <mutex>
#include <thread>

struct Registry {
  int size = 0;
  int* codes = nullptr;
};

Registry* g_registry = nullptr;
std::mutex g_registry_mutex;

Registry* registry() {
  if (g_registry == nullptr) {
    std::lock_guard<std::mutex> guard(g_registry_mutex);
    if (g_registry == nullptr) {
      g_registry = new Registry();
      g_registry->codes = new int[4]{200, 301, 404, 500};
      g_registry->size = 4;
    }
  }
  return g_registry;
}

int checksum() {
  const Registry* r = registry();
  int sum = 0;
  for (int i = 0; i < r->size; i++) sum += r->codes[i];
  return sum;
}

int main() {
  int sums[2] = {0, 0};
  std::thread a([&sums] { sums[0] = checksum(); });
  std::thread b([&sums] { sums[1] = checksum(); });
  a.join();
  b.join();
  std::printf("checksums %d %d\n", sums[0], sums[1]);
  return sums[0] == 1405 && sums[1] == 1405 ? 0 : 1;
}

// ctrlsched-truth: class=check_then_act fails=assertion
// ctrlsched-truth: cause g_plugins R1@36 W2@25 W1@25
// ctrlsched-truth: cause g_plugins R1@36 W2@25 R1@25
// ctrlsched-truth: cause g_plugins R1@36 W2@25 R1@24
// plugin_registry.cpp - plugins register themselves by name in a registry behind a
// std::shared_mutex.
// add() checks for the name under the shared lock and appends under the exclusive lock, but
// does not check again after upgrading: two threads loading the same plugin both register it.
#include <cassert>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <thread>

class PluginRegistry {
 public:
  bool add(const char* name) {
    {
      std::shared_lock<std::shared_mutex> read(mutex_);
      if (find(name) >= 0) return false;
    }
    std::unique_lock<std::shared_mutex> write(mutex_);
    names_[count_] = name;
    count_++;
    return true;
  }

  int size() {
    std::shared_lock<std::shared_mutex> read(mutex_);
    return count_;
  }

 private:
  int find(const char* name) const {
    for (int i = 0; i < count_; i++)
      if (std::strcmp(names_[i], name) == 0) return i;
    return -1;
  }

  std::shared_mutex mutex_;
  const char* names_[8] = {};
  int count_ = 0;
};

PluginRegistry g_plugins;

int main() {
  std::thread a([] { g_plugins.add("gzip"); });
  std::thread b([] { g_plugins.add("gzip"); });
  a.join();
  b.join();
  std::printf("%d plugins\n", g_plugins.size());
  assert(g_plugins.size() == 1 && "plugin registered twice");
  return 0;
}

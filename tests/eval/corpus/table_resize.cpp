// ctrlsched-truth: class=multi_variable fails=assertion
// ctrlsched-truth: cause g_table W1@38 R2@28
// ctrlsched-truth: cause g_table R1@29 W2@39
// ctrlsched-truth: cause g_table R1@28 W2@38
// ctrlsched-truth: cause g_table W1@39 R2@29
// table_resize.cpp - an open table whose readers do not lock, and whose writer grows it.
//
// A lock-free reader reads the capacity and then the slot array. If grow() runs between the
// two reads, the reader combines a capacity with the other generation's array, looks the key up
// at the wrong index and misses it (either order of straddling fails).
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

class Table {
 public:
  Table() : slots_(storage_[0]) {}

  void put(int key) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (size_ + 1 >= capacity_ / 2) grow();
    slots_[key % capacity_] = key;
    size_++;
  }

  bool contains(int key) const {
    const int capacity = capacity_;
    const int* slots = slots_;
    return slots[key % capacity] == key;
  }

 private:
  void grow() {
    int* bigger = storage_[1];
    for (int i = 0; i < capacity_; i++)
      if (slots_[i] != 0) bigger[slots_[i] % (capacity_ * 2)] = slots_[i];
    capacity_ = capacity_ * 2;
    slots_ = bigger;
  }

  std::mutex mutex_;
  int storage_[2][8] = {};
  int* slots_;
  int capacity_ = 4;
  int size_ = 0;
};

Table g_table;

int main() {
  g_table.put(5);
  bool found = true;
  std::thread writer([] { g_table.put(2); });
  std::thread reader([&found] { found = g_table.contains(5); });
  writer.join();
  reader.join();
  std::printf("key 5 %s\n", found ? "found" : "missing");
  assert(found && "reader missed a key during a resize");
  return 0;
}

#include "thread_table.h"

#include <sys/mman.h>

#include <cstring>
#include <new>

namespace ctrlsched::shim {

bool ThreadTable::init() {
  std::size_t bytes = sizeof(Thread) * kMaxThreads + sizeof(ThreadId) * kMaxThreads;
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return false;
  slots_ = static_cast<Thread*>(mem);
  live_ = reinterpret_cast<ThreadId*>(slots_ + kMaxThreads);
  count_ = live_count_ = 0;
  return true;
}

Thread* ThreadTable::create() {
  if (count_ == kMaxThreads) return nullptr;
  Thread* t = new (&slots_[count_]) Thread{};
  t->id = count_++;
  live_[live_count_++] = t->id;  // ids grow, so appending keeps the list sorted
  return t;
}

Thread* ThreadTable::find_by_os_tid(pid_t tid) {
  for (std::uint32_t id = 0; tid != 0 && id < count_; ++id)
    if (slots_[id].os_tid == tid) return &slots_[id];
  return nullptr;
}

void ThreadTable::remove_live(ThreadId id) {
  for (std::uint32_t i = 0; i < live_count_; ++i) {
    if (live_[i] != id) continue;
    std::memmove(&live_[i], &live_[i + 1], (live_count_ - i - 1) * sizeof(ThreadId));
    --live_count_;
    return;
  }
}

}  // namespace ctrlsched::shim

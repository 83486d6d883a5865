// An intrusive FIFO of threads waiting on one object. A thread waits on at most one object at a
// time, so the link lives in the thread itself and queues never allocate.
#pragma once

#include <cstddef>

namespace ctrlsched::shim {

struct Thread;

struct WaitQueue {
  Thread* head = nullptr;
  Thread* tail = nullptr;
  std::size_t size = 0;

  bool empty() const { return size == 0; }
  void push_back(Thread* t);
  Thread* pop_front();
  bool remove(Thread* t);        // false if t was not queued here
  Thread* at(std::size_t index) const;
};

}  // namespace ctrlsched::shim

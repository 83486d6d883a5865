#include "wait_queue.h"

#include "thread_table.h"

namespace ctrlsched::shim {

void WaitQueue::push_back(Thread* t) {
  t->next_waiter = nullptr;
  if (tail) tail->next_waiter = t; else head = t;
  tail = t;
  ++size;
}

Thread* WaitQueue::pop_front() {
  Thread* t = head;
  if (!t) return nullptr;
  head = t->next_waiter;
  if (!head) tail = nullptr;
  t->next_waiter = nullptr;
  --size;
  return t;
}

bool WaitQueue::remove(Thread* t) {
  Thread* prev = nullptr;
  for (Thread* cur = head; cur; prev = cur, cur = cur->next_waiter) {
    if (cur != t) continue;
    if (prev) prev->next_waiter = cur->next_waiter; else head = cur->next_waiter;
    if (tail == cur) tail = prev;
    cur->next_waiter = nullptr;
    --size;
    return true;
  }
  return false;
}

Thread* WaitQueue::at(std::size_t index) const {
  Thread* cur = head;
  while (cur && index--) cur = cur->next_waiter;
  return cur;
}

}  // namespace ctrlsched::shim

// Models of the test's synchronization objects, keyed by the object's address.
//
// Lock state that fits the real object is kept IN the object with glibc's own encoding (a
// mutex's __lock/__owner/__count, a semaphore's value, a spinlock word, a once word), so a
// fork child that forwards to the real functions sees a consistent object, and memory reused
// for a new object never meets stale model state. What does not fit — waiter queues, rwlock
// holders, barrier rounds — lives here, and an entry exists only while its object is busy
// (barriers: from init to destroy). Fixed capacity, no allocation after start-up.
#pragma once

#include <cstdint>

#include "wait_queue.h"

namespace ctrlsched::shim {

struct Thread;

enum class ModelKind : std::uint8_t { Mutex, Rwlock, Cond, Semaphore, Barrier, Once, Spin, Futex };

struct Model {
  std::uintptr_t address = 0;
  ModelKind kind = ModelKind::Mutex;
  bool persistent = false;  // barriers: kept from init to destroy
  WaitQueue waiters;
  // Rwlock: readers holding it, and the writer with the call that made it the writer.
  std::uint32_t readers = 0;
  Thread* writer = nullptr;
  std::uintptr_t writer_pc = 0;
  // Robust mutex whose owner died: Inconsistent until pthread_mutex_consistent, NotRecoverable
  // if unlocked before that (the entry is then persistent).
  enum class Robust : std::uint8_t { Consistent, Inconsistent, NotRecoverable };
  Robust robust = Robust::Consistent;
  // Barrier.
  std::uint32_t barrier_count = 0;
  std::uint32_t barrier_arrived = 0;
  std::uint64_t barrier_round = 0;
};

class ObjectTable {
 public:
  bool init();
  Model* find(const void* object, ModelKind kind);
  // nullptr when the table is full (reported as a shim error by the caller).
  Model* get(const void* object, ModelKind kind);
  // Frees the entry if nothing refers to it any more.
  void release_if_idle(Model* model);
  void erase(Model* model);

 private:
  static constexpr std::uint32_t kCapacity = 8192;
  static constexpr std::uint32_t kSlots = 16384;  // power of two, load factor <= 0.5
  static constexpr std::int32_t kEmpty = 0;
  std::uint32_t slot_of(std::uintptr_t address, ModelKind kind) const;
  // Fresh anonymous pages: all zero, i.e. empty; see object_table.cc.
  Model* pool_ = nullptr;
  std::int32_t* slots_ = nullptr;       // index into pool_ + 1, kEmpty = empty
  std::int32_t* free_list_ = nullptr;   // stack of freed pool indexes
  std::uint32_t free_count_ = 0;
  std::uint32_t never_used_ = 0;        // pool entries [never_used_, kCapacity) were never handed out
};

}  // namespace ctrlsched::shim

// Open addressing with linear probing and backward-shift deletion: no tombstones, so a long run
// that creates and frees many objects keeps short probe sequences.
//
// All-zero memory is an empty table (a slot holds pool index + 1, 0 = empty; pool entries are
// handed out in index order and only freed ones are stacked), so init() writes nothing: a run
// touches only the pages of the objects it uses. Clearing the 96 KiB up front cost every run
// (every fork-server child) two dozen page faults.
#include "object_table.h"

#include <sys/mman.h>

#include <new>

namespace ctrlsched::shim {

bool ObjectTable::init() {
  std::size_t bytes = sizeof(Model) * kCapacity + sizeof(std::int32_t) * (kSlots + kCapacity);
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return false;
  pool_ = static_cast<Model*>(mem);
  slots_ = reinterpret_cast<std::int32_t*>(pool_ + kCapacity);
  free_list_ = slots_ + kSlots;
  free_count_ = 0;
  never_used_ = 0;
  return true;
}

std::uint32_t ObjectTable::slot_of(std::uintptr_t address, ModelKind kind) const {
  std::uint64_t key = (address >> 2) ^ (static_cast<std::uint64_t>(kind) << 60);
  return static_cast<std::uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 50) & (kSlots - 1);
}

Model* ObjectTable::find(const void* object, ModelKind kind) {
  auto address = reinterpret_cast<std::uintptr_t>(object);
  for (std::uint32_t s = slot_of(address, kind);; s = (s + 1) & (kSlots - 1)) {
    const std::int32_t entry = slots_[s];
    if (entry == kEmpty) return nullptr;
    Model* m = &pool_[entry - 1];
    if (m->address == address && m->kind == kind) return m;
  }
}

Model* ObjectTable::get(const void* object, ModelKind kind) {
  if (Model* existing = find(object, kind)) return existing;
  // The most recently freed entry first, then the next never used one: the order the former
  // stack of all free indexes (0 on top) gave.
  std::int32_t index;
  if (free_count_ > 0) index = free_list_[--free_count_];
  else if (never_used_ < kCapacity) index = static_cast<std::int32_t>(never_used_++);
  else return nullptr;
  Model* m = new (&pool_[index]) Model{};
  m->address = reinterpret_cast<std::uintptr_t>(object);
  m->kind = kind;
  std::uint32_t s = slot_of(m->address, kind);
  while (slots_[s] != kEmpty) s = (s + 1) & (kSlots - 1);
  slots_[s] = index + 1;
  return m;
}

void ObjectTable::release_if_idle(Model* m) {
  if (m == nullptr || m->persistent || !m->waiters.empty() || m->readers != 0 || m->writer)
    return;
  erase(m);
}

void ObjectTable::erase(Model* m) {
  auto index = static_cast<std::int32_t>(m - pool_);
  std::uint32_t s = slot_of(m->address, m->kind);
  while (slots_[s] != index + 1) s = (s + 1) & (kSlots - 1);
  // Backward-shift: move later entries of the probe run into the hole.
  std::uint32_t hole = s;
  for (std::uint32_t next = (hole + 1) & (kSlots - 1); slots_[next] != kEmpty;
       next = (next + 1) & (kSlots - 1)) {
    Model* other = &pool_[slots_[next] - 1];
    std::uint32_t home = slot_of(other->address, other->kind);
    bool movable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next);
    if (movable) {
      slots_[hole] = slots_[next];
      hole = next;
    }
  }
  slots_[hole] = kEmpty;
  m->address = 0;
  free_list_[free_count_++] = index;
}

}  // namespace ctrlsched::shim

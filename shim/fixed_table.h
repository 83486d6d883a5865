// Fixed-capacity open-addressing tables for the online collectors, over storage the caller maps
// up front: nothing here allocates, locks or throws, so they are safe inside the test process
// and from on_run_end. Both tables probe linearly from a Fibonacci hash over a power-of-two
// number of slots and accept at most half as many keys as slots, so a probe always ends.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ctrlsched::shim {

// Fibonacci hashing: the high bits of key * 2^64/phi.
inline std::uint32_t fibonacci_hash(std::uint64_t key) {
  return static_cast<std::uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 40);
}

// Per-address state, keyed by the exact 64-bit address of an access.
template <class Value>
class AddressTable {
 public:
  struct Entry {
    std::uint64_t address;
    bool used;
    Value value;
  };

  static constexpr std::size_t bytes(std::uint32_t slots) { return sizeof(Entry) * slots; }

  // `storage` holds `slots` (a power of two) zero-filled entries, e.g. fresh anonymous pages.
  void attach(void* storage, std::uint32_t slots) {
    entries_ = static_cast<Entry*>(storage);
    mask_ = slots - 1;
    capacity_ = slots / 2;
    size_ = 0;
  }

  // The entry of `address`; a new one, its value as the storage held it, after calling
  // on_insert(entry) when the address is new; nullptr when the table is full and the address
  // is not in it.
  template <class OnInsert>
  Entry* find_or_insert(std::uint64_t address, OnInsert&& on_insert) {
    for (std::uint32_t i = fibonacci_hash(address) & mask_;; i = (i + 1) & mask_) {
      Entry& slot = entries_[i];
      if (slot.used) {
        if (slot.address == address) return &slot;
        continue;
      }
      if (size_ == capacity_) return nullptr;
      ++size_;
      slot.address = address;
      slot.used = true;
      on_insert(slot);
      return &slot;
    }
  }

 private:
  Entry* entries_ = nullptr;
  std::uint32_t mask_ = 0;
  std::uint32_t capacity_ = 0;
  std::uint32_t size_ = 0;
};

// Finds a key's entry in an array the table does not own (a summary in the run record, filled
// in first-occurrence order): slots hold entry indices, -1 when empty.
class IndexTable {
 public:
  struct Lookup {
    std::int32_t index;  // -1: not found and the entries were full
    bool inserted;
  };

  static constexpr std::size_t bytes(std::uint32_t slots) { return sizeof(std::int32_t) * slots; }

  // `storage` holds `slots` (a power of two) indices; at most slots / 2 entries are indexed.
  void attach(void* storage, std::uint32_t slots) {
    slots_ = static_cast<std::int32_t*>(storage);
    mask_ = slots - 1;
    capacity_ = slots / 2;
    for (std::uint32_t i = 0; i < slots; ++i) slots_[i] = -1;
  }

  // The entry whose key has `hash` and satisfies is_key(index). When there is none and
  // `used` < capacity, make_entry(index) fills entry `used` and then `used` grows by one (last,
  // so a reader of the record never sees an incomplete entry).
  template <class IsKey, class MakeEntry>
  Lookup find_or_insert(std::uint64_t hash, std::uint32_t& used, IsKey&& is_key, MakeEntry&& make_entry) {
    for (std::uint32_t i = fibonacci_hash(hash) & mask_;; i = (i + 1) & mask_) {
      const std::int32_t index = slots_[i];
      if (index >= 0) {
        if (is_key(index)) return {index, false};
        continue;
      }
      if (used == capacity_) return {-1, false};
      const auto added = static_cast<std::int32_t>(used);
      make_entry(added);
      slots_[i] = added;
      ++used;
      return {added, true};
    }
  }

 private:
  std::int32_t* slots_ = nullptr;
  std::uint32_t mask_ = 0;
  std::uint32_t capacity_ = 0;
};

}  // namespace ctrlsched::shim

// The shim's fixed-capacity tables (shim/fixed_table.h), over plain zeroed storage.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "fixed_table.h"

using ctrlsched::shim::AddressTable;
using ctrlsched::shim::IndexTable;

namespace {

struct Counter {
  std::uint32_t hits;
};

}  // namespace

TEST_CASE("an address table keeps one entry per address and takes half its slots", "[shim][fixed_table]") {
  using Table = AddressTable<Counter>;
  std::vector<Table::Entry> storage(8);  // value-initialized: zero, like fresh pages
  Table table;
  table.attach(storage.data(), 8);
  std::vector<std::uint64_t> inserted;
  const auto note = [&](Table::Entry& e) { inserted.push_back(e.address); };

  for (std::uint64_t address : {0x1000u, 0x2000u, 0x1000u, 0x3000u, 0x4000u, 0x1000u}) {
    Table::Entry* e = table.find_or_insert(address, note);
    REQUIRE(e != nullptr);
    CHECK(e->address == address);
    ++e->value.hits;
  }
  CHECK(inserted == std::vector<std::uint64_t>{0x1000, 0x2000, 0x3000, 0x4000});
  CHECK(table.find_or_insert(0x1000, note)->value.hits == 3);
  CHECK(table.find_or_insert(0x4000, note)->value.hits == 1);

  // Four of eight slots used: a new address is refused, known ones are still found.
  CHECK(table.find_or_insert(0x5000, note) == nullptr);
  CHECK(inserted.size() == 4);
  CHECK(table.find_or_insert(0x2000, note)->value.hits == 1);
}

TEST_CASE("an index table maps keys to entries filled in first-occurrence order", "[shim][fixed_table]") {
  std::vector<std::int32_t> slots(4);
  IndexTable table;
  table.attach(slots.data(), 4);
  CHECK(slots == std::vector<std::int32_t>{-1, -1, -1, -1});

  std::uint64_t entries[2] = {};
  std::uint32_t used = 0;
  const auto lookup = [&](std::uint64_t key) {
    // Every key hashes alike: the probe must still tell them apart by the predicate.
    return table.find_or_insert(
        7, used, [&](std::int32_t index) { return entries[index] == key; },
        [&](std::int32_t index) {
          CHECK(static_cast<std::uint32_t>(index) == used);  // filled before it counts
          entries[index] = key;
        });
  };

  IndexTable::Lookup a = lookup(11);
  CHECK(a.index == 0);
  CHECK(a.inserted);
  IndexTable::Lookup b = lookup(22);
  CHECK(b.index == 1);
  CHECK(b.inserted);
  IndexTable::Lookup again = lookup(11);
  CHECK(again.index == 0);
  CHECK_FALSE(again.inserted);
  CHECK(used == 2);

  IndexTable::Lookup full = lookup(33);  // two entries for four slots: full
  CHECK(full.index == -1);
  CHECK_FALSE(full.inserted);
  CHECK(used == 2);
  CHECK(lookup(22).index == 1);
}

// Shared locations: accessed by two threads or more, whatever the access kinds.
#include <catch2/catch.hpp>

#include "ctrlsched/localize/shared_locations.h"
#include "localize_trace_builder.h"

using namespace ctrlsched::localize;
using ctrlsched::localize::testing::TraceBuilder;
using Addresses = std::vector<std::uint64_t>;

TEST_CASE("only locations two threads touch are shared", "[localize][shared]") {
  TraceBuilder b;
  b.spawn(2);
  b.write(1, 0x30);         // shared: T1 writes, T2 reads
  b.read(2, 0x30);
  b.write(1, 0x10);         // T1 only, many times
  b.read(1, 0x10);
  b.write(1, 0x10);
  b.atomic_load(2, 0x20);   // shared through atomics
  b.atomic_rmw(0, 0x20);
  b.read(0, 0x40);          // T0 only
  b.lock(1, 0x50);          // sync objects are not locations
  b.lock(2, 0x50);
  b.atomic_rmw(1, 0);       // fences are not locations
  b.atomic_rmw(2, 0);
  SharedLocations shared = shared_locations(b.trace());
  CHECK(shared.addresses() == Addresses{0x20, 0x30});
  CHECK(shared.size() == 2);
  CHECK(shared.contains(0x30));
  CHECK_FALSE(shared.contains(0x10));
  CHECK_FALSE(shared.contains(0x40));
  CHECK_FALSE(shared.contains(0x50));
  CHECK_FALSE(shared.contains(0));
}

TEST_CASE("an empty trace has no shared locations", "[localize][shared]") {
  CHECK(shared_locations(Trace{}).addresses().empty());
}

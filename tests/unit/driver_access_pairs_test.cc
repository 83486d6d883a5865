// Reading the access-pair collector's table out of a run record (--access-pairs).
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "access_pairs.h"
#include "ctrlsched/access_pairs.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

// A zeroed record with room for the summary area, like the driver's memfd.
struct RecordBuffer {
  std::unique_ptr<std::uint8_t[]> bytes{new std::uint8_t[kLogRegionOffset]()};
  RunRecord& record() { return *reinterpret_cast<RunRecord*>(bytes.get()); }
  AccessPairSummary& summary() { return *reinterpret_cast<AccessPairSummary*>(bytes.get() + kSummaryOffset); }
};

}  // namespace

TEST_CASE("no summary unless the collector was asked for and ran", "[access_pairs]") {
  RecordBuffer buffer;
  ClassifyContext raw;
  CHECK_FALSE(read_access_pairs(buffer.record(), raw).has_value());
  buffer.record().config.collectors = kCollectAccessPairs;
  CHECK_FALSE(read_access_pairs(buffer.record(), raw).has_value());  // magic not written
}

TEST_CASE("pairs come out in first-seen order with their sites and counts", "[access_pairs]") {
  RecordBuffer buffer;
  RunRecord& record = buffer.record();
  record.config.collectors = kCollectAccessPairs;
  record.modules.count = 1;
  std::strcpy(record.modules.modules[0].path, "/tmp/prog");
  AccessPairSummary& summary = buffer.summary();
  summary.magic = kAccessPairsMagic;
  summary.capacity = kMaxAccessPairs;
  summary.accesses = 9;
  summary.locations = 2;
  summary.used = 2;
  summary.pairs[0] = AccessPair{0x1219, 0x1208, 1, 0, 0, 4};
  summary.pairs[1] = AccessPair{0x1219, (std::uint64_t{5} << kSiteModuleShift) | 0x10, 1, 1, 0, 1};

  ClassifyContext raw;  // no symbolizer: frames stay "module+0xoffset"
  const auto pairs = read_access_pairs(record, raw);
  REQUIRE(pairs.has_value());
  CHECK(pairs->accesses == 9);
  CHECK(pairs->locations == 2);
  REQUIRE(pairs->pairs.size() == 2);
  // Sites are return addresses of hook calls: the frame is one byte earlier.
  CHECK_THAT(pairs->pairs[0].head, Catch::StartsWith("W ") && Catch::Contains("0x1218"));
  CHECK_THAT(pairs->pairs[0].tail, Catch::StartsWith("R ") && Catch::Contains("0x1207"));
  CHECK(pairs->pairs[0].count == 4);
  CHECK(pairs->pairs[1].tail == "W ?");  // a module index the record does not have
}

// Reading the access-pair collector's table out of a run record (--access-pairs).
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "ctrlsched/access_pairs.h"
#include "runs/access_pairs.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

// A zeroed record with room for the summary area, like the driver's memfd.
struct PairsRecordBuffer {
  std::unique_ptr<std::uint8_t[]> bytes{new std::uint8_t[kLogRegionOffset]()};
  RunRecord& record() { return *reinterpret_cast<RunRecord*>(bytes.get()); }
  AccessPairSummary& summary() { return *reinterpret_cast<AccessPairSummary*>(bytes.get() + kSummaryOffset); }
};

}  // namespace

TEST_CASE("no summary unless the collector was asked for and ran", "[access_pairs]") {
  PairsRecordBuffer buffer;
  ClassifyContext raw;
  CHECK_FALSE(read_access_pairs(buffer.record(), raw).has_value());
  buffer.record().config.collectors = kCollectAccessPairs;
  CHECK_FALSE(read_access_pairs(buffer.record(), raw).has_value());  // magic not written
}

TEST_CASE("pairs come out in first-seen order with their sites and counts", "[access_pairs]") {
  PairsRecordBuffer buffer;
  RunRecord& record = buffer.record();
  record.config.collectors = kCollectAccessPairs;
  record.modules.count = 1;
  std::strcpy(record.modules.modules[0].path, "/tmp/prog");
  AccessPairSummary& summary = buffer.summary();
  summary.magic = kAccessPairsMagic;
  summary.capacity = kMaxAccessPairs;
  summary.accesses = 9;
  summary.locations = 2;
  summary.used = 3;
  summary.pairs[0] = AccessPair{.head_site = 0x1219, .tail_site = 0x1208, .location = 0x7f00,
                                .head_thread = 1, .tail_thread = 2, .head_access = 3,
                                .tail_access = 5, .count = 4, .head_write = 1, .tail_write = 0,
                                .head_iteration = 0, .tail_iteration = 2};
  summary.pairs[1] = AccessPair{.head_site = 0x1219, .tail_site = (std::uint64_t{5} << kSiteModuleShift) | 0x10,
                                .location = 0x9000, .head_thread = 1, .tail_thread = 0,
                                .head_access = 6, .tail_access = 8, .count = 1, .head_write = 1,
                                .tail_write = 1, .head_iteration = 255, .tail_iteration = 0};
  summary.pairs[2] = AccessPair{.head_site = 0x1208, .tail_site = 0x1219, .location = 0x7f00,
                                .head_thread = 2, .tail_thread = 1, .head_access = 9,
                                .tail_access = 10, .count = 1, .head_write = 0, .tail_write = 1,
                                .head_iteration = 2, .tail_iteration = 1};

  ClassifyContext raw;  // no symbolizer: frames stay "module+0xoffset"
  const auto pairs = read_access_pairs(record, raw);
  REQUIRE(pairs.has_value());
  CHECK(pairs->accesses == 9);
  CHECK(pairs->locations == 2);
  REQUIRE(pairs->pairs.size() == 3);
  // Sites are return addresses of hook calls: the frame is one byte earlier.
  CHECK_THAT(pairs->pairs[0].head, Catch::StartsWith("W ") && Catch::Contains("0x1218"));
  CHECK_THAT(pairs->pairs[0].tail, Catch::StartsWith("R ") && Catch::Contains("0x1207"));
  CHECK(pairs->pairs[0].count == 4);
  CHECK(pairs->pairs[1].tail == "W ?");  // a module index the record does not have

  // The Locon key and first-occurrence data come through unchanged.
  const AccessPairResult& first = pairs->pairs[0];
  CHECK(first.head_site == 0x1219);
  CHECK(first.tail_site == 0x1208);
  CHECK(first.head_write);
  CHECK_FALSE(first.tail_write);
  CHECK(first.head_thread == 1);
  CHECK(first.tail_thread == 2);
  CHECK(first.head_iteration == 0);
  CHECK(first.tail_iteration == 2);
  CHECK(first.head_access == 3);
  CHECK(first.tail_access == 5);
  CHECK(pairs->pairs[1].head_iteration == 255);
  // Locations are renumbered by first appearance: pairs 0 and 2 share one.
  CHECK(pairs->pairs[0].location == 0);
  CHECK(pairs->pairs[1].location == 1);
  CHECK(pairs->pairs[2].location == 0);
}

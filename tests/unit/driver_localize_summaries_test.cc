// Falcon patterns and block spectra read out of a run record, ranked and rendered (text, JSON).
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "ctrlsched/block_spectra.h"
#include "ctrlsched/falcon_patterns.h"
#include "driver_test_support.h"
#include "localize/falcon_summary.h"
#include "localize/spectra_summary.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::fake_data;
using ctrlsched::driver::testing::fake_symbolize;
using ctrlsched::driver::testing::RecordBuffer;

namespace {

void add_pattern(FalconPatternSummary& s, FalconKind kind, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                 std::uint64_t location) {
  FalconPatternEntry& e = s.patterns[s.used++];
  e.kind = static_cast<std::uint8_t>(kind);
  e.sites[0] = a;
  e.sites[1] = b;
  e.sites[2] = c;
  e.location = location;
  e.threads[0] = 1;
  e.threads[1] = 2;
  e.count = 1;
}

}  // namespace

TEST_CASE("no Falcon or spectra summary unless asked for and started", "[localize_summaries]") {
  RecordBuffer buffer;
  const RecordNames names(buffer.record(), {});
  CHECK_FALSE(read_falcon_run(buffer.record(), false, names).has_value());
  CHECK_FALSE(read_spectra_run(buffer.record(), false).has_value());
  buffer.record().config.collectors = kCollectFalcon | kCollectSpectra;
  CHECK_FALSE(read_falcon_run(buffer.record(), false, names).has_value());  // magic not written
  CHECK_FALSE(read_spectra_run(buffer.record(), false).has_value());
}

TEST_CASE("Falcon patterns are read, ranked and rendered with names", "[localize_summaries]") {
  RecordBuffer failing, passing;
  for (RecordBuffer* b : {&failing, &passing}) {
    b->record().config.collectors = kCollectFalcon;
    b->falcon().magic = kFalconPatternsMagic;
  }
  // A global at bias + 0x4010 and a heap address.
  add_pattern(failing.falcon(), FalconKind::R1W2R1, 0x12, 0x13, 0x14, 0x555555554000 + 0x4010);
  // Orders thread creation or join fixed, which the collector did not count: 3 and 1.
  failing.falcon().fixed_by_lifecycle = 3;
  passing.falcon().fixed_by_lifecycle = 1;
  add_pattern(failing.falcon(), FalconKind::W1W2, 0x20, 0x21, 0, 0x7ffff0001000);
  add_pattern(passing.falcon(), FalconKind::W1W2, 0x20, 0x21, 0, 0x7ffff0002000);
  const RecordNames names(failing.record(), fake_symbolize, fake_data);

  std::vector<localize::FalconRun> runs;
  runs.push_back(*read_falcon_run(failing.record(), true, names));
  runs.push_back(*read_falcon_run(passing.record(), false, names));
  REQUIRE(runs[0].patterns.size() == 2);
  CHECK(runs[0].patterns[0].location_name == "g16400");
  CHECK(runs[0].patterns[1].location_name.empty());

  const auto ranking = localize::rank_falcon(runs);
  const auto lines = render_falcon_text(ranking, names);
  REQUIRE(lines.size() == 2);
  // Sites are return addresses: 0x12 is looked up at 0x11 = 17.
  CHECK(lines[0] ==
        "  1  1.00  R1-W2-R1  g16400  prog.c:17 f17 → prog.c:18 f18 [T2] → prog.c:19 f19   failing 1/1 · passing 0/1");
  CHECK(lines[1] == "  2  0.50  W1-W2     0x7ffff0001000  prog.c:31 f31 → prog.c:32 f32 [T2]   failing 1/1 · passing 1/1");
  CHECK(render_falcon_text(ranking, names, 1).size() == 1);

  const auto json = falcon_json(ranking, names);
  CHECK(json["score"] == "jaccard");
  CHECK(json["patterns"][0]["kind"] == "R1-W2-R1");
  CHECK(json["patterns"][0]["accesses"][1]["access"] == "W");
  CHECK(json["patterns"][0]["accesses"][1]["role"] == 2);
  CHECK(json["patterns"][0]["accesses"][2]["thread"] == 1);
  CHECK(json["patterns"][1]["passed"] == 1);
  CHECK(json["fixed_by_lifecycle"] == 4);
  CHECK(fixed_orders_note(ranking.fixed_by_lifecycle) ==
        "; 4 occurrences of orders thread creation or join fixes not counted");
  CHECK(fixed_orders_note(1) == "; 1 occurrence of orders thread creation or join fixes not counted");
  CHECK(fixed_orders_note(0).empty());
}

TEST_CASE("two statements of one line are told apart by their column when they would print alike",
          "[localize_summaries]") {
  // Offset o (looked up at o - 1) is line (o - 1) / 16, column (o - 1) % 16, function "f": 0x22
  // and 0x26 are two statements of line 2 (a member's default initializer and the constructor
  // body, say), 0x33 the only one of line 3.
  const auto symbolize = [](std::string_view frame) {
    const auto plus = frame.rfind("+0x");
    const std::uint32_t offset = static_cast<std::uint32_t>(std::stoul(std::string(frame.substr(plus + 3)), nullptr, 16));
    return SourceLocation{std::string(frame), "f", "/src/ctor.cc", offset / 16, offset % 16};
  };
  RecordBuffer failing;
  failing.record().config.collectors = kCollectFalcon;
  failing.falcon().magic = kFalconPatternsMagic;
  add_pattern(failing.falcon(), FalconKind::R1W2, 0x33, 0x22, 0, 0x7ffff0001000);
  add_pattern(failing.falcon(), FalconKind::R1W2, 0x33, 0x26, 0, 0x7ffff0001000);
  const RecordNames names(failing.record(), symbolize, {});
  std::vector<localize::FalconRun> runs;
  runs.push_back(*read_falcon_run(failing.record(), true, names));
  const auto lines = render_falcon_text(localize::rank_falcon(runs), names);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].find("ctor.cc:3 f → ctor.cc:2:1 f [T2]") != std::string::npos);
  CHECK(lines[1].find("ctor.cc:3 f → ctor.cc:2:5 f [T2]") != std::string::npos);
  // Shown alone, a site keeps its plain name.
  const auto first = render_falcon_text(localize::rank_falcon(runs), names, 1);
  REQUIRE(first.size() == 1);
  CHECK(first[0].find("ctor.cc:3 f → ctor.cc:2 f [T2]") != std::string::npos);
  // Two sites of one statement (a read and a write of `counter++`: one column) print alike, as
  // they are the same code: no column.
  RecordBuffer same;
  same.record().config.collectors = kCollectFalcon;
  same.falcon().magic = kFalconPatternsMagic;
  add_pattern(same.falcon(), FalconKind::R1W2, 0x33, 0x22, 0, 0x7ffff0001000);
  add_pattern(same.falcon(), FalconKind::W1W2, 0x33, 0x22 + 16 * 0x10, 0, 0x7ffff0001000);
  const RecordNames same_names(same.record(), [](std::string_view frame) {
    return SourceLocation{std::string(frame), "f", "/src/ctor.cc", 2, 1};  // every site: line 2, column 1
  }, {});
  std::vector<localize::FalconRun> same_runs;
  same_runs.push_back(*read_falcon_run(same.record(), true, same_names));
  for (const std::string& line : render_falcon_text(localize::rank_falcon(same_runs), same_names))
    CHECK(line.find("ctor.cc:2:") == std::string::npos);
}

TEST_CASE("spectra are read, ranked and rendered", "[localize_summaries]") {
  RecordBuffer failing, passing;
  for (RecordBuffer* b : {&failing, &passing}) {
    b->record().config.collectors = kCollectSpectra;
    b->spectra().magic = kBlockSpectraMagic;
    b->spectra().used = 2;
    b->spectra().components[0].site = 0x41;
    b->spectra().components[0].entries = 2;
    b->spectra().components[0].threads = 2;
    b->spectra().components[1].site = 0x51;
    b->spectra().components[1].entries = 2;
    b->spectra().components[1].threads = 2;
  }
  failing.spectra().components[0].concurrent = 1;
  failing.spectra().components[0].concurrent_threads[0] = 1;
  failing.spectra().components[0].concurrent_threads[1] = 2;
  passing.spectra().components[1].concurrent = 1;
  std::vector<localize::SpectraRun> runs = {*read_spectra_run(failing.record(), true),
                                            *read_spectra_run(passing.record(), false)};
  const auto ranking = localize::rank_spectra(runs);
  const RecordNames names(failing.record(), fake_symbolize);
  const auto lines = render_spectra_text(ranking, 1, 1, names);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "  1  1.00  prog.c:64 f64  [T1 ∥ T2]   concurrent in failing 1/1 · passing 0/1");
  CHECK(lines[1] == "  2  0.00  prog.c:80 f80  -   concurrent in failing 0/1 · passing 1/1");
  const auto json = spectra_json(ranking, 1, 1, names);
  CHECK(json["components"][0]["n11"] == 1);
  CHECK(json["components"][1]["threads"].is_null());

  // No component concurrent in the failing run: one line, not a list of blocks tied at 0.
  runs[0].components[0].concurrent = false;
  const auto nowhere = render_spectra_text(localize::rank_spectra(runs), 1, 1, names);
  REQUIRE(nowhere.size() == 1);
  CHECK(nowhere[0] == "  (no block ran concurrently with another thread's in a failing run: 2 blocks, all scored 0)");
}

TEST_CASE("names stay raw without a symbolizer", "[localize_summaries]") {
  RecordBuffer buffer;
  const RecordNames names(buffer.record(), {});
  CHECK(names.site(0x1219) == "/tmp/prog+0x1218");
  CHECK(names.site(0) == "?");
  CHECK(names.site(std::uint64_t{3} << kSiteModuleShift) == "?");
  CHECK(names.location(0x1000) == "0x1000");
}

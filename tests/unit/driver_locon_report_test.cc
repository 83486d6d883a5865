// Locon's driver side: run results → procedure input, findings → text and JSON.
#include <catch2/catch.hpp>

#include "localize/locon_report.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
namespace locon = ctrlsched::localize::locon;

namespace {

AccessPairResult access_pair(std::uint64_t head_site, bool head_write, std::uint64_t tail_site, bool tail_write,
                             std::uint32_t head_thread, std::uint32_t tail_thread, std::uint32_t location) {
  AccessPairResult p;
  p.head = std::string(head_write ? "W " : "R ") + "site" + std::to_string(head_site);
  p.tail = std::string(tail_write ? "W " : "R ") + "site" + std::to_string(tail_site);
  p.count = 1;
  p.head_site = head_site;
  p.tail_site = tail_site;
  p.head_write = head_write;
  p.tail_write = tail_write;
  p.head_thread = head_thread;
  p.tail_thread = tail_thread;
  p.location = location;
  return p;
}

RunResult pairs_run(OutcomeKind kind, std::vector<AccessPairResult> pairs) {
  RunResult r;
  r.kind = kind;
  r.access_pairs = AccessPairs{};
  r.access_pairs->pairs = std::move(pairs);
  return r;
}

}  // namespace

TEST_CASE("Locon input: the failing run against every passing run with a summary", "[locon_report]") {
  std::vector<RunResult> runs{pairs_run(OutcomeKind::Pass, {access_pair(10, true, 20, false, 1, 2, 0)}),
                              pairs_run(OutcomeKind::Signal, {}),
                              RunResult{},  // passing, without a summary: left out
                              pairs_run(OutcomeKind::Pass, {access_pair(10, true, 20, false, 1, 2, 0),
                                                            access_pair(11, true, 21, false, 1, 2, 1)})};
  const auto input = locon_input(runs, 1);
  REQUIRE(input.has_value());
  CHECK(input->failed.pairs.empty());
  REQUIRE(input->passing.size() == 2);
  CHECK(input->passing[1].pairs[1].key ==
        locon::PairKey{locon::Side{11, true, 1, 0}, locon::Side{21, false, 2, 0}});
  CHECK(input->passing[1].pairs[1].location == 1);
  CHECK_FALSE(locon_input(runs, 2).has_value());
  CHECK_FALSE(locon_input(runs, 9).has_value());

  // The failing read (site 20) ended the run before the write (site 10): procedure II.
  const auto findings = locon::localize(input->failed, input->passing);
  const RunSiteNames names = site_names(runs);
  CHECK(names.at(10) == "site10");
  CHECK(findings_text(findings, names) ==
        "Locon: procedure II at pc level, 1 finding\n"
        "  1. R@site20 → W@site10\n"
        "     in all 2 passing runs but not in the failed run: the reversed order ended the run before its tail\n");
  const auto json = findings_json(findings, names);
  REQUIRE(json.size() == 1);
  CHECK(json[0]["procedure"] == "II");
  CHECK(json[0]["level"] == "pc");
  CHECK(json[0]["order"] == 0);
  CHECK(json[0]["pairs"][0]["text"] == "R@site20 → W@site10");
  CHECK(json[0]["pairs"][0]["head"] == nlohmann::ordered_json{{"kind", "R"}, {"site", "site20"}});
}

TEST_CASE("Locon text shows threads at tid level and iterations at loop level", "[locon_report]") {
  const RunSiteNames names{{5, "reader (fig4.c:5)"}};
  const locon::PairKey key{locon::Side{5, false, 2, 0}, locon::Side{0x2a, true, 1, 3}};
  CHECK(pair_text(key, locon::Level::Pc, names) == "R@reader (fig4.c:5) → W@0x2a");
  CHECK(pair_text(key, locon::Level::Tid, names) == "R@reader (fig4.c:5) [T2] → W@0x2a [T1]");
  CHECK(pair_text(key, locon::Level::Loop, names) ==
        "R@reader (fig4.c:5) [T2, iteration 0] → W@0x2a [T1, iteration 3]");
  const locon::Finding coupled{locon::Procedure::III, locon::Level::Loop, {key, locon::reversed(key)}, 4, "why"};
  CHECK(findings_text({coupled}, names) ==
        "Locon: procedure III at loop level, 1 finding\n"
        "  1. R@reader (fig4.c:5) [T2, iteration 0] → W@0x2a [T1, iteration 3]\n"
        "     coupled with: W@0x2a [T1, iteration 3] → R@reader (fig4.c:5) [T2, iteration 0]\n"
        "     why\n");
  const auto json = findings_json({coupled}, names);
  CHECK(json[0]["pairs"][1]["tail"] ==
        nlohmann::ordered_json{{"kind", "R"}, {"site", "reader (fig4.c:5)"}, {"thread", 2}, {"iteration", 0}});
  CHECK(findings_text({}, names) == "Locon: no buggy access pair found.\n");
}

// Locon on a real run: the instrumented bandwidth_order example under `ctrlsched --access-pairs
// --json`, its runs' pairs read back from the report, and the test procedures applied to each
// failing run against the passing runs. The failing read (h->bandwidth, line 42) crashes the
// run; where that happens before the session thread's write (line 36), the pair never forms and
// procedure II must report the reversed pair R@42 → W@36 first. Where a switch at the crashing
// access let the write happen first, the failed run has R@42 → W@36 itself: procedure I.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "ctrlsched/localize/locon.h"
#include "e2e.h"

using namespace e2e;
namespace locon = ctrlsched::localize::locon;

namespace {

locon::RunPairs pairs_of(const Json& run) {
  locon::RunPairs result;
  for (const Json& p : run.at("access_pairs").at("pairs")) {
    auto side = [&](const std::string& end) {
      return locon::Side{p.at(end + "_site").get<std::uint64_t>(), p.at(end).get<std::string>().front() == 'W',
                         p.at(end + "_thread").get<std::uint32_t>(), p.at(end + "_iteration").get<std::uint8_t>()};
    };
    result.pairs.push_back(locon::Pair{locon::PairKey{side("head"), side("tail")},
                                       p.at("location").get<std::uint64_t>(),
                                       p.at("head_access").get<std::uint32_t>(),
                                       p.at("tail_access").get<std::uint32_t>(),
                                       p.at("count").get<std::uint32_t>()});
  }
  return result;
}

// Only the memory accesses' pairs: what the driver's Locon tries first for an assertion.
locon::RunPairs memory_pairs_of(const Json& run) {
  locon::RunPairs all = pairs_of(run), memory;
  std::size_t i = 0;
  for (const Json& p : run.at("access_pairs").at("pairs")) {
    const char head = p.at("head").get<std::string>().front(), tail = p.at("tail").get<std::string>().front();
    if ((head == 'R' || head == 'W') && (tail == 'R' || tail == 'W')) memory.pairs.push_back(all.pairs[i]);
    ++i;
  }
  return memory;
}

// The raw site of a pair side whose text names `file_line` ("bandwidth_order.c:36").
std::optional<std::uint64_t> site_named(const Json& runs, const std::string& file_line) {
  for (const Json& run : runs)
    for (const Json& p : run.at("access_pairs").at("pairs"))
      for (const std::string end : {"head", "tail"})
        if (p.at(end).get<std::string>().find(file_line) != std::string::npos)
          return p.at(end + "_site").get<std::uint64_t>();
  return std::nullopt;
}

}  // namespace

TEST_CASE("Locon: the h->bandwidth order violation, found from crashed runs", "[locon]") {
  TempDir dir;
  const SeedsRun r =
      run_seeds(dir, binary("example_inst", "bandwidth_order"), {"--seeds", "60", "-j2", "--access-pairs", "--no-save"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  REQUIRE(r.failures() > 0);

  std::vector<locon::RunPairs> passing;
  for (const Json& run : r.runs())
    if (run.at("kind") == "pass") passing.push_back(pairs_of(run));
  REQUIRE(passing.size() >= 5);

  const auto write = site_named(r.runs(), "bandwidth_order.c:36");
  const auto read = site_named(r.runs(), "bandwidth_order.c:42");
  REQUIRE(write.has_value());
  REQUIRE(read.has_value());
  const locon::PairKey culprit{locon::Side{*read, false, 0, 0}, locon::Side{*write, true, 0, 0}};

  int crashed_before_write = 0;
  for (const Json& run : r.runs()) {
    if (run.at("kind") == "pass") continue;
    INFO("seed " << run.at("seed") << ": " << run.at("access_pairs").dump());
    CHECK(run.at("kind") == "signal");
    const locon::RunPairs failed = pairs_of(run);
    const std::vector<locon::Finding> findings = locon::localize(failed, passing);
    REQUIRE_FALSE(findings.empty());
    CHECK(findings.front().pairs.front() == culprit);
    CHECK(findings.front().level == locon::Level::Pc);
    if (failed.pairs.empty()) {
      // The read crashed the run before the write: the pair is missing, not reversed.
      ++crashed_before_write;
      CHECK(findings.front().procedure == locon::Procedure::II);
      CHECK(findings.front().order == 0);
    } else {
      CHECK(findings.front().procedure == locon::Procedure::I);
    }
  }
  CHECK(crashed_before_write > 0);
}

// Figure 4 as a program (programs/locon_loop.c): the writer sets x (line 15) and y (line 16) in
// two loop iterations; the reader reads x (23) and y (24) and asserts them equal. Every failing
// run must be localized to pairs on both variables: the failure needs both.
TEST_CASE("Locon: Figure 4 as a program, every failure localized to both variables", "[locon]") {
  TempDir dir;
  const SeedsRun r =
      run_seeds(dir, binary("program_inst", "locon_loop"), {"--seeds", "300", "-j2", "--access-pairs", "--no-save"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  REQUIRE(r.failures() > 0);
  std::vector<locon::RunPairs> passing;
  for (const Json& run : r.runs())
    if (run.at("kind") == "pass") passing.push_back(pairs_of(run));

  const auto write_x = site_named(r.runs(), "locon_loop.c:15");
  const auto write_y = site_named(r.runs(), "locon_loop.c:16");
  const auto read_x = site_named(r.runs(), "locon_loop.c:23");
  const auto read_y = site_named(r.runs(), "locon_loop.c:24");
  REQUIRE((write_x && write_y && read_x && read_y));
  auto on = [](const locon::PairKey& k, std::uint64_t a, std::uint64_t b) {
    return (k.head.site == a && k.tail.site == b) || (k.head.site == b && k.tail.site == a);
  };

  std::map<std::string, int> by_procedure;
  for (const Json& run : r.runs()) {
    if (run.at("kind") == "pass") continue;
    INFO("seed " << run.at("seed") << ": " << run.at("access_pairs").dump());
    CHECK(run.at("kind") == "assertion");
    const locon::RunPairs failed = pairs_of(run);
    const std::vector<locon::Finding> findings = locon::localize(failed, passing);
    REQUIRE_FALSE(findings.empty());
    const locon::Finding& first = findings.front();
    REQUIRE(first.pairs.size() == 2);  // II: culprit + partner, III: the coupled pair
    CHECK(first.procedure != locon::Procedure::I);
    CHECK(on(first.pairs[0], *write_x, *read_x) != on(first.pairs[1], *write_x, *read_x));
    CHECK(on(first.pairs[0], *write_y, *read_y) != on(first.pairs[1], *write_y, *read_y));
    if (failed.pairs.size() == 1) {
      // The reader saw x of iteration 0 and failed before T1 wrote y at all: the culprit is
      // R y → W y (missing), its partner W x → R x (Table 1, ID-10, third case).
      CHECK(first.procedure == locon::Procedure::II);
      CHECK(first.level == locon::Level::Pc);
      CHECK(first.pairs[0].head.site == *read_y);
      CHECK(first.pairs[0].tail.site == *write_y);
    }
    ++by_procedure[std::string(locon::name(first.procedure)) + "/" + std::string(locon::name(first.level))];
  }
  // The seeds are fixed, so these are the same every time; the loop level is needed.
  std::string summary;
  for (const auto& [k, n] : by_procedure) summary += k + "=" + std::to_string(n) + " ";
  INFO(summary);
  CHECK(by_procedure.count("III/loop") == 1);
  CHECK(by_procedure.count("II/pc") == 1);
}

// Pairs are data dependences, not just adjacent accesses: in check_then_act's failing order
// (T1 checks at line 26, T2 checks, T2 subtracts at 30, T1 subtracts) T2's write depends on T1's
// check although T2's own check came in between. So the first pair only failing runs have is the
// stale check before the other withdrawal, R@26 → W@30, ahead of the act W@30 → R@30.
TEST_CASE("Locon: a write depends on every other thread's read since the last write", "[locon]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("example_inst", "check_then_act"),
                               {"--seeds", "60", "-j2", "--strategy", "pct", "--access-pairs", "--no-save"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  REQUIRE(r.failures() > 0);
  std::vector<locon::RunPairs> passing;
  for (const Json& run : r.runs())
    if (run.at("kind") == "pass") passing.push_back(memory_pairs_of(run));
  REQUIRE(passing.size() >= 5);
  const auto check = site_named(r.runs(), "check_then_act.c:26");
  const auto act = site_named(r.runs(), "check_then_act.c:30");
  REQUIRE((check && act));

  std::uint64_t localized = 0;
  for (const Json& run : r.runs()) {
    if (run.at("kind") == "pass") continue;
    INFO("seed " << run.at("seed") << ": " << run.at("access_pairs").dump());
    const std::vector<locon::Finding> findings = locon::localize(memory_pairs_of(run), passing);
    REQUIRE_FALSE(findings.empty());
    const locon::PairKey& first = findings.front().pairs.front();
    CHECK(findings.front().procedure == locon::Procedure::I);
    CHECK(first.head.site == *check);
    CHECK_FALSE(first.head.write);
    CHECK(first.tail.site == *act);
    CHECK(first.tail.write);
    ++localized;
  }
  CHECK(localized == r.failures());
}

TEST_CASE("locon: a deadlock's first finding is the lock cycle's two halves, not a reversed unlock",
          "[locon]") {
  // heldout3's cache_stats: the writer holds the cache's lock (line 34) and takes the stats' (48)
  // to count an eviction; the reporter holds the stats' (53) and takes the cache's (43). Each
  // half of the cycle happens in some passing run, never both. A deadlocked run lacks every pair
  // after the deadlock, so Procedure II's "in every passing run, not in the failed one" named
  // `lock@53 → unlock@50`, an unlock that never came (docs/decisions.md, 46).
  TempDir dir;
  const SeedsRun r =
      run_seeds(dir, binary("heldout3_inst", "cache_stats"), {"--seeds", "200", "--strategy", "pct", "--localize", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& locon_report = r.json.at("localization").at("locon");
  INFO("Locon: " << locon_report.dump());
  const Json& findings = locon_report.at("findings");
  REQUIRE_FALSE(findings.empty());
  const Json& first = findings.at(0);
  CHECK(first.at("procedure") == "III");
  std::vector<std::string> halves;
  for (const Json& pair : first.at("pairs")) {
    CHECK(pair.at("head").at("kind") == "lock");
    CHECK(pair.at("tail").at("kind") == "lock");
    halves.push_back(pair.at("text").get<std::string>());
  }
  REQUIRE(halves.size() == 2);
  CHECK(contains(halves[0], "cache_stats.cpp:34)"));
  CHECK(contains(halves[0], "cache_stats.cpp:43)"));
  CHECK(contains(halves[1], "cache_stats.cpp:53)"));
  CHECK(contains(halves[1], "cache_stats.cpp:48)"));
  CHECK(first.at("confirmation").at("verdict") == "confirmed");
}

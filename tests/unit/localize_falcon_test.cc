// Falcon (Park, Vuduc, Harrold, ICSE 2010): the window of Algorithm 1 and the pattern ranking,
// checked against the paper's worked examples. Sites are the statement numbers of Figure 1(a);
// threads are the paper's thread numbers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "ctrlsched/falcon_window.h"
#include "ctrlsched/localize/falcon.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;

namespace {

// "R1,3" = read by thread 1 at statement 3, as in the paper.
FalconAccess access(const std::string& text) {
  FalconAccess a;
  a.write = text[0] == 'W';
  a.thread = static_cast<std::uint32_t>(text[1] - '0');
  a.site = std::stoull(text.substr(3));
  return a;
}

std::string text(const FalconAccess& a) {
  return std::string(a.write ? "W" : "R") + std::to_string(a.thread) + "," + std::to_string(a.site);
}

// A run whose collector table held `accesses`, sorted as read_falcon_run keeps them.
FalconRun run_that_executed(bool failed, std::vector<ExecutedAccess> accesses) {
  FalconRun run;
  run.failed = failed;
  std::sort(accesses.begin(), accesses.end());
  run.executed = std::move(accesses);
  return run;
}

// A W1-R2 sighting: the write at site `write` reached the read at site `read`, at `location`.
FalconSighting flow_sighting(std::uint64_t write, std::uint64_t read, std::uint64_t location,
                             std::array<std::uint32_t, 2> threads, std::string location_name = "") {
  FalconSighting flow;
  flow.id = {FalconKind::W1R2, {write, read, 0}, {}};
  flow.location = location;
  flow.location_name = std::move(location_name);
  flow.threads = threads;
  return flow;
}

std::string contents(const FalconWindow& w) {
  std::string s;
  for (std::uint32_t i = 0; i < w.size(); ++i) s += (i ? " " : "") + text(w.slot(i));
  return s;
}

// "W1-W2-R1 1,4,3": kind and sites.
std::string text(const FalconHit& hit) {
  std::string s = std::string(falcon_kind_name(hit.kind)) + " ";
  for (std::uint32_t i = 0; i < falcon_kind_length(hit.kind); ++i)
    s += (i ? "," : "") + std::to_string(hit.accesses[i].site);
  return s;
}

struct Replay {
  std::vector<std::string> windows;  // contents after each access
  std::vector<std::string> hits;     // patterns extracted while the stream ran
  std::vector<std::string> drained;  // patterns extracted at the end
  std::vector<FalconHit> all;
};

Replay replay(const std::vector<std::string>& stream, std::uint32_t size) {
  Replay r;
  FalconWindow w;
  w.reset(size);
  for (const std::string& a : stream) {
    w.add(access(a), [&](const FalconHit& h) { r.hits.push_back(text(h)), r.all.push_back(h); });
    r.windows.push_back(contents(w));
  }
  w.drain([&](const FalconHit& h) { r.drained.push_back(text(h)), r.all.push_back(h); });
  CHECK(w.size() == 0);
  return r;
}

using Strings = std::vector<std::string>;

// Figure 1(b), column 3 and 4: the x and y accesses of the four executions.
const std::vector<Strings> kFigure1X = {
    {"R1,1", "W1,1", "R3,6", "W3,6", "R2,4", "R1,3"},
    {"R1,1", "W1,1", "R3,6", "W3,6", "R2,4", "R1,3"},
    {"R1,1", "W1,1", "R2,4", "W2,4", "R3,6", "R1,3"},
    {"R1,1", "W1,1", "R2,4", "W2,4", "R3,6", "R1,3"},
};
const std::vector<Strings> kFigure1Y = {
    {"R1,2", "W1,2", "R3,7", "W3,7", "R2,5", "R1,3"},
    {"R1,2", "W1,2", "R2,5", "W2,5", "R3,7", "R1,3"},
    {"R1,2", "W1,2", "R3,7", "W3,7", "R2,5", "R1,3"},
    {"R1,2", "W1,2", "R2,5", "W2,5", "R3,7", "R1,3"},
};

FalconRun run_of(const std::vector<Strings>& streams, std::uint32_t window, bool failed) {
  FalconRun run;
  run.failed = failed;
  for (const Strings& stream : streams)
    for (const FalconHit& h : replay(stream, window).all) {
      FalconPatternId id{h.kind, {h.accesses[0].site, h.accesses[1].site, h.accesses[2].site}};
      auto it = std::find_if(run.patterns.begin(), run.patterns.end(), [&](auto& s) { return s.id == id; });
      if (it != run.patterns.end()) {
        ++it->count;
        continue;
      }
      FalconSighting s;
      s.id = id;
      s.threads = {h.accesses[0].thread, h.accesses[1].thread};
      run.patterns.push_back(s);
    }
  return run;
}

std::string text(const FalconPatternId& id) {
  std::string s = std::string(falcon_kind_name(id.kind)) + " ";
  for (std::uint32_t i = 0; i < falcon_kind_length(id.kind); ++i) s += (i ? "," : "") + std::to_string(id.sites[i]);
  return s;
}

}  // namespace

TEST_CASE("Figure 2(a): the x window of execution 2, size 3", "[falcon][golden]") {
  const Replay r = replay(kFigure1X[1], 3);
  CHECK(r.windows == Strings{"R1,1", "W1,1", "W1,1 R3,6", "W1,1 W3,6", "W1,1 W3,6 R2,4", "W3,6 R2,4 R1,3"});
  // Full at R2,4; R1,3 slides it: no triple (no later slot of thread 1), the pair W1-W3.
  CHECK(r.hits == Strings{"W1-W2 1,6"});
  CHECK(r.drained == Strings{"W1-R2 6,4"});
}

TEST_CASE("Figure 2(b): the y window of execution 2 needs size 4 for its triple", "[falcon][golden]") {
  const Replay three = replay(kFigure1Y[1], 3);
  CHECK(three.windows == Strings{"R1,2", "W1,2", "W1,2 R2,5", "W1,2 W2,5", "W1,2 W2,5 R3,7", "W2,5 R3,7 R1,3"});
  CHECK(three.hits == Strings{"W1-W2 2,5"});
  CHECK(three.drained == Strings{"W1-R2 5,7"});

  const Replay four = replay(kFigure1Y[1], 4);
  CHECK(four.windows ==
        Strings{"R1,2", "W1,2", "W1,2 R2,5", "W1,2 W2,5", "W1,2 W2,5 R3,7", "W1,2 W2,5 R3,7 R1,3"});
  CHECK(four.hits.empty());
  // Slots 1, 2 and 4: W1-W2-R1; no pair is counted for the oldest slot besides the triple.
  CHECK(four.drained == Strings{"W1-W2-R1 2,5,3", "W1-R2 5,7"});
}

// Our extension (falcon_window.h, "Adjacent accesses"): a slot stands for a run of one thread's
// accesses, and the accesses next to the other thread's are reported beside the paper's
// representatives when they are at other sites (statements).
TEST_CASE("adjacent accesses: a loop's load after its own store is the R1 of a lost update", "[falcon]") {
  // T1: store (iteration 1, site 2), load (iteration 2, site 1); T2 loads and stores; T1 stores.
  const Replay r = replay({"W1,2", "R1,1", "R2,1", "W2,2", "W1,2"}, 5);
  // The paper keeps T1's write over its later read: W1-W2-W1, serializable, says nothing.
  // The accesses next to each other: T1's load, T2's store, T1's store, the lost update.
  CHECK(r.hits.empty());
  CHECK(r.drained == Strings{"W1-W2-W1 2,2,2", "R1-W2-W1 1,2,2", "W1-W2 2,2"});
}

TEST_CASE("adjacent accesses: the read right after the other thread's write", "[falcon]") {
  // T1 writes; T2 reads at 4 and again at 5: the paper keeps the later read (5), but the read
  // that saw T1's write first is 4.
  const Replay r = replay({"W1,3", "R2,4", "R2,5"}, 5);
  CHECK(r.drained == Strings{"W1-R2 3,5", "W1-R2 3,4"});
}

TEST_CASE("adjacent accesses: a check in a loop, then the decrement, around the other thread's", "[falcon]") {
  // Sites: 29 the check's load, 31 the decrement's load, 32 its store. T1 stored in the previous
  // iteration and checks; T2 decrements; T1 decrements. The check-then-act is R1-W2-W1 29,32,32
  // (the check, the other's store, the stale store); the paper's slots only show W1-W2-W1.
  const Replay r = replay({"W1,32", "R1,29", "R2,31", "W2,32", "R1,31", "W1,32"}, 5);
  CHECK(r.drained ==
        Strings{"W1-W2-W1 32,32,32", "W1-W2-R1 32,32,31", "R1-W2-W1 29,32,32", "R1-W2-R1 29,32,31", "W1-W2 32,32",
                "W1-R2 32,31"});
}

TEST_CASE("adjacent accesses: one statement's read and write are the paper's pattern alone", "[falcon]") {
  // T2's read and write at one site (x = x + 1): the same statement, nothing more to report.
  const Replay r = replay({"W1,1", "R2,6", "W2,6", "R1,3"}, 5);
  CHECK(r.drained == Strings{"W1-W2-R1 1,6,3", "W1-R2 6,3"});
}

TEST_CASE("Figure 1(c): W1-W2-R1 for x and y score 0.5, W1-W3-R1 scores 0", "[falcon][golden]") {
  for (std::uint32_t window : {4u, 5u}) {
    INFO("window " << window);
    std::vector<FalconRun> runs;
    for (std::size_t i = 0; i < 4; ++i) runs.push_back(run_of({kFigure1X[i], kFigure1Y[i]}, window, i == 3));
    const FalconRanking ranking = rank_falcon(runs);
    CHECK(ranking.total_failed == 1);
    CHECK(ranking.total_passed == 3);
    Strings triples;
    std::vector<double> scores;
    for (const RankedFalconPattern& p : ranking.patterns) {
      if (falcon_kind_length(p.id.kind) != 3) continue;
      triples.push_back(text(p.id));
      scores.push_back(p.score);
    }
    // x: W1,1 W2,4 .. R1,3 (runs 3, 4) and W1,1 W3,6 .. R1,3 (runs 1, 2); the same for y. In role
    // notation the paper's W1-W3-R1 is W1-W2-R1 too; the sites tell them apart.
    CHECK(triples == Strings{"W1-W2-R1 1,4,3", "W1-W2-R1 2,5,3", "W1-W2-R1 1,6,3", "W1-W2-R1 2,7,3"});
    CHECK(scores == std::vector<double>{0.5, 0.5, 0.0, 0.0});

    // All of it: the pairs the drains add have the triples' score and counts; the triples, more
    // specific, rank before them (falcon_rank_key), the two triples of x and y tie.
    Strings all;
    for (const RankedFalconPattern& p : ranking.patterns)
      all.push_back(text(p.id) + " p" + std::to_string(p.passed) + " f" + std::to_string(p.failed) + " #" +
                    std::to_string(p.rank) + "/" + std::to_string(p.tied));
    CHECK(all == Strings{"W1-W2-R1 1,4,3 p1 f1 #1/2", "W1-W2-R1 2,5,3 p1 f1 #1/2", "W1-R2 4,6 p1 f1 #3/2",
                         "W1-R2 5,7 p1 f1 #3/2", "W1-W2-R1 1,6,3 p2 f0 #5/2", "W1-W2-R1 2,7,3 p2 f0 #5/2",
                         "W1-R2 6,4 p2 f0 #7/2", "W1-R2 7,5 p2 f0 #7/2"});
    CHECK(ranking.patterns[0].example.threads == std::array<std::uint32_t, 2>{1, 2});
  }
}

TEST_CASE("Tarantula and Ochiai of Figure 1's W1-W2-R1 (failed 1, passed 1 of 3)", "[falcon]") {
  CHECK(falcon_score(FalconScore::Jaccard, 1, 1, 1, 3) == 0.5);
  CHECK(falcon_score(FalconScore::Tarantula, 1, 1, 1, 3) == Approx(0.75));
  CHECK(falcon_score(FalconScore::Ochiai, 1, 1, 1, 3) == Approx(0.7071067811865476));
  // Falcon's point: a pattern seen once in one failing run of ten gets Tarantula 1 but a low Jaccard.
  CHECK(falcon_score(FalconScore::Tarantula, 1, 0, 10, 5) == 1.0);
  CHECK(falcon_score(FalconScore::Jaccard, 1, 0, 10, 5) == Approx(0.1));
  CHECK(falcon_score(FalconScore::Jaccard, 0, 0, 0, 0) == 0.0);
  CHECK(falcon_score(FalconScore::Tarantula, 0, 0, 0, 4) == 0.0);
  CHECK(falcon_score(FalconScore::Ochiai, 0, 3, 0, 4) == 0.0);
  CHECK(parse_falcon_score("tarantula") == FalconScore::Tarantula);
  CHECK_FALSE(parse_falcon_score("Jaccard").has_value());
}

TEST_CASE("window policy: a local read never replaces a write; a local write replaces a read", "[falcon]") {
  CHECK(replay({"W1,1", "R1,2"}, 3).windows.back() == "W1,1");
  CHECK(replay({"R1,1", "R1,2"}, 3).windows.back() == "R1,2");
  CHECK(replay({"R1,1", "W1,2"}, 3).windows.back() == "W1,2");
  CHECK(replay({"W1,1", "W1,2"}, 3).windows.back() == "W1,2");
}

TEST_CASE("every remote access between the oldest and its thread's next one forms a triple", "[falcon]") {
  // The paper's R1-W2-W3-...-R1 argument: a window of n + 1 slots keeps all n - 1 triples.
  const Replay r = replay({"R1,1", "W2,2", "W3,3", "R1,4"}, 4);
  CHECK(r.drained == Strings{"R1-W2-R1 1,2,4", "R1-W2-R1 1,3,4", "W1-W2 2,3", "W1-R2 3,4"});
  // Each slot in turn is the oldest; only its thread's next access closes a triple.
  CHECK(replay({"W1,1", "R2,2", "W1,3", "W2,4", "W1,5"}, 5).drained ==
        Strings{"W1-R2-W1 1,2,3", "R1-W2-W1 2,3,4", "W1-W2-W1 3,4,5", "W1-W2 4,5"});
  // Two reads make no pair; W1-R2-R1 is serializable, so the pair is counted instead.
  CHECK(replay({"R1,1", "R2,2"}, 3).drained.empty());
  CHECK(replay({"W1,1", "R2,2", "R1,3"}, 3).drained == Strings{"W1-R2 1,2"});
}

TEST_CASE("window sizes are clamped to [2, 16], 0 is the default 5", "[falcon]") {
  CHECK(falcon_window_size(0) == 5);
  CHECK(falcon_window_size(1) == 2);
  CHECK(falcon_window_size(3) == 3);
  CHECK(falcon_window_size(99) == 16);
}

TEST_CASE("rank key: equal scores split by evidence, then by specificity; only equal keys tie", "[falcon]") {
  auto sighting = [](FalconKind kind, std::uint64_t a, std::uint64_t b, std::uint64_t c = 0) {
    FalconSighting s;
    s.id.kind = kind;
    s.id.sites = {a, b, c};
    return s;
  };
  FalconRun failing;
  failing.failed = true;
  // All seen in the one failing run and no passing run: score 1 each.
  failing.patterns = {sighting(FalconKind::W1W2, 2, 2), sighting(FalconKind::W1W2W1, 2, 2, 2),
                      sighting(FalconKind::R1W2W1, 1, 2, 2), sighting(FalconKind::W1R2, 2, 9),
                      sighting(FalconKind::R1W2R1, 3, 4, 3)};
  FalconRun passing;
  const std::vector<FalconRun> runs = {failing, passing};
  const FalconRanking ranking = rank_falcon(runs);
  Strings order;
  for (const RankedFalconPattern& p : ranking.patterns)
    order.push_back(text(p.id) + " #" + std::to_string(p.rank) + "/" + std::to_string(p.tied));
  // The unserializable triples first (tied with each other), then the pairs, then W1-W2-W1.
  CHECK(order == Strings{"R1-W2-R1 3,4,3 #1/2", "R1-W2-W1 1,2,2 #1/2", "W1-R2 2,9 #3/2", "W1-W2 2,2 #3/2",
                         "W1-W2-W1 2,2,2 #5/1"});
}

// docs/localization.md, "Orders a run's end cut short".
TEST_CASE("orders cut short: a read whose write never came is R1-W2", "[falcon]") {
  constexpr std::uint64_t kWrite = 38, kRead = 28, kOtherRead = 40;
  // A passing run: the publisher's write reached the worker's read (W1-R2 38→28) at 0x100.
  FalconRun passing = run_that_executed(false, {{kRead, 0x100, false, false}, {kWrite, 0x100, true, false}});
  passing.patterns.push_back(flow_sighting(kWrite, kRead, 0x100, {0, 1}, "g_config"));
  // A failing run that crashed at the read: no write at 38 ever.
  const FalconRun crashed = run_that_executed(true, {{kRead, 0x100, false, false}, {kOtherRead, 0x200, false, false}});
  // A failing run that knows nothing of what it executed (its table overflowed): left alone.
  FalconRun unknown;
  unknown.failed = true;
  // A failing run where the write at 38 ran for another location only (a second worker's slot):
  // at 0x100 it never came.
  const FalconRun other_slot = run_that_executed(true, {{kRead, 0x100, false, false}, {kWrite, 0x108, true, false}});
  std::vector<FalconRun> runs = {passing, crashed, unknown, other_slot};
  CHECK(add_orders_cut_short(runs) == 2);
  const FalconPatternId cut{FalconKind::R1W2, {kRead, kWrite, 0}, {}};
  REQUIRE(runs[1].patterns.size() == 1);
  CHECK(runs[1].patterns[0].id == cut);
  CHECK(runs[1].patterns[0].cut_short);
  CHECK(runs[1].patterns[0].location == 0x100);
  CHECK(runs[1].patterns[0].location_name == "g_config");
  CHECK(runs[1].patterns[0].threads == std::array<std::uint32_t, 2>{1, 0});
  CHECK(runs[2].patterns.empty());
  REQUIRE(runs[3].patterns.size() == 1);
  CHECK(runs[0].patterns.size() == 1);  // the passing run had the write
  const FalconRanking ranking = rank_falcon(runs);
  const auto it = std::find_if(ranking.patterns.begin(), ranking.patterns.end(),
                               [&](const RankedFalconPattern& p) { return p.id == cut; });
  REQUIRE(it != ranking.patterns.end());
  CHECK(it->failed == 2);
  CHECK(it->failed_cut_short == 2);
  CHECK(it->passed == 0);
  // Run again: nothing new (each run has the sighting already).
  CHECK(add_orders_cut_short(runs) == 0);
}

// docs/localization.md, "Orders a run's end cut short": only a write some run made.
TEST_CASE("orders cut short: a location no run ever wrote at the write's site makes no order", "[falcon]") {
  // table_resize: the writer's put stores into slot 0x150 (W1-R2 23→30 there in a passing run);
  // a failing reader, combining one generation's capacity with the other's array, reads slot
  // 0x13c, which no run ever writes at 23. Its write did not "never come": there is none.
  constexpr std::uint64_t kWrite = 23, kRead = 30;
  FalconRun passing = run_that_executed(false, {{kRead, 0x150, false, false}, {kWrite, 0x150, true, false}});
  passing.patterns.push_back(flow_sighting(kWrite, kRead, 0x150, {1, 2}));
  const FalconRun misread = run_that_executed(true, {{kRead, 0x13c, false, false}, {kWrite, 0x150, true, false}});
  // A failing run that read 0x150 before the write, which never came: still the order.
  const FalconRun early = run_that_executed(true, {{kRead, 0x150, false, false}});
  std::vector<FalconRun> runs = {passing, misread, early};
  CHECK(add_orders_cut_short(runs) == 1);
  CHECK(runs[1].patterns.empty());
  REQUIRE(runs[2].patterns.size() == 1);
  CHECK(runs[2].patterns[0].location == 0x150);
}

// docs/localization.md, "Orders a run's end cut short": by statement.
TEST_CASE("orders cut short: another copy of the write's statement writing the location is the write", "[falcon]") {
  // `serving += delta` inlined twice (maintenance3): 27 in the -1 caller, 127 in the +1 caller.
  constexpr std::uint64_t kReadMinus = 26, kWriteMinus = 27, kWritePlus = 127, kReadPlus = 126;
  const std::map<std::uint64_t, std::uint64_t> statement_of = {
      {kReadMinus, kReadMinus}, {kReadPlus, kReadMinus}, {kWriteMinus, kWriteMinus}, {kWritePlus, kWriteMinus}};
  // A passing run: one replica's +1 reached another's -1 (W1-R2 127→26).
  FalconRun passing = run_that_executed(false, {{kReadMinus, 0x100, false, false}, {kWriteMinus, 0x100, true, false},
                                                {kReadPlus, 0x100, false, false}, {kWritePlus, 0x100, true, false}});
  passing.patterns.push_back(flow_sighting(kWritePlus, kReadMinus, 0x100, {0, 1}));
  // A failing run: every -1 ran (read and write), no +1 did.
  const FalconRun failing =
      run_that_executed(true, {{kReadMinus, 0x100, false, false}, {kWriteMinus, 0x100, true, false}});
  std::vector<FalconRun> by_pc = {passing, failing};
  CHECK(add_orders_cut_short(by_pc) == 1);  // by pc, the +1's write "never came"
  std::vector<FalconRun> by_statement = {passing, failing};
  CHECK(add_orders_cut_short(by_statement, statement_of) == 0);  // the statement wrote it
  // A run that never wrote the location at either copy still gets the order.
  by_statement.push_back(run_that_executed(true, {{kReadMinus, 0x100, false, false}}));
  CHECK(add_orders_cut_short(by_statement, statement_of) == 1);
  REQUIRE(by_statement[2].patterns.size() == 1);
  CHECK(by_statement[2].patterns[0].cut_short);
}

// docs/localization.md, "One statement, one site".
TEST_CASE("merge by statement: one line inlined into two callers is one pattern", "[falcon]") {
  // Sites 24 and 124 are the same statement (pop() inlined into two lambdas), 26 and 126 too.
  const std::map<std::uint64_t, std::uint64_t> statement_of = {{24, 24}, {124, 24}, {26, 26}, {126, 26}};
  FalconRun first, second;
  first.failed = second.failed = true;
  FalconSighting a;
  a.id = {FalconKind::R1W2, {24, 126, 0}, {}};
  a.count = 2;
  FalconSighting b;
  b.id = {FalconKind::R1W2, {124, 26, 0}, {}};
  b.count = 3;
  first.patterns = {a, b};   // both in one run: merged, counts added
  second.patterns = {b};     // the other copy only
  std::vector<FalconRun> runs = {first, second};
  merge_by_statement(runs, statement_of);
  REQUIRE(runs[0].patterns.size() == 1);
  CHECK(runs[0].patterns[0].id.sites == std::array<std::uint64_t, 3>{24, 26, 0});
  CHECK(runs[0].patterns[0].count == 5);
  CHECK(runs[0].patterns[0].forcing_sites() == std::array<std::uint64_t, 3>{24, 126, 0});  // its own pcs
  CHECK(runs[1].patterns[0].forcing_sites() == std::array<std::uint64_t, 3>{124, 26, 0});
  const FalconRanking ranking = rank_falcon(runs);
  REQUIRE(ranking.patterns.size() == 1);
  CHECK(ranking.patterns[0].failed == 2);
  // Sites the map does not know stay as they are; merging twice changes nothing.
  merge_by_statement(runs, statement_of);
  CHECK(runs[0].patterns[0].forcing_sites() == std::array<std::uint64_t, 3>{24, 126, 0});
}

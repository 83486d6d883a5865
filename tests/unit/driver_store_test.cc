// The run store's pieces without processes: the stored forms round-trip every field, the database
// keeps generations apart, reads a seed stored twice once, and refuses files that are not stores.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "exit_codes.h"
#include "store/run_codec.h"
#include "store/store_writer.h"
#include "store/run_store.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
namespace fs = std::filesystem;

namespace {

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& name)
      : path(fs::temp_directory_path() / ("ctrlsched-store-test-" + std::to_string(::getpid()) + "-" + name)) {
    remove();
  }
  ~TempFile() { remove(); }
  void remove() const {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
  }
};

RunResult failing_run() {
  RunResult r;
  r.seed = 17;
  r.kind = OutcomeKind::Assertion;
  r.handle = "17:pct:d3:k90@00000000deadbeef";
  r.schedule_hash = 0xdeadbeef;
  r.steps = 412;
  r.decisions = 9;
  r.preemptions = 2;
  r.threads = 3;
  r.output_tail = "bank: assertion failed\n";
  r.note = "a note";
  FailureDetails f;
  f.kind = OutcomeKind::Assertion;
  f.message = "assertion `total == 300` failed";
  f.file = "bank.c";
  f.line = 41;
  f.function = "main";
  f.stack = {"main (bank.c:41)", "_start"};
  f.details = {"T1 blocked"};
  f.signature = "assertion|bank.c:41";
  r.failure = f;
  AccessPairs pairs;
  pairs.accesses = 100;
  pairs.locations = 3;
  pairs.untracked = 1;
  pairs.dropped = 0;
  AccessPairResult p;
  p.head = "W bank.c:18 (deposit)";
  p.tail = "R bank.c:18 (deposit)";
  p.count = 2;
  p.head_site = 0x1234;
  p.tail_site = 0x5678;
  p.head_write = true;
  p.head_thread = 1;
  p.tail_thread = 2;
  p.head_iteration = 1;
  p.head_access = 7;
  p.tail_access = 9;
  p.location = 1;
  p.tail_sync = 3;
  pairs.pairs.push_back(p);
  r.access_pairs = pairs;
  return r;
}

StoredRun row(std::uint64_t seed, const std::string& outcome, const std::string& spec = encode_spec(RunSpec{})) {
  StoredRun r;
  r.seed = seed;
  r.strategy = "random";
  r.spec = spec;
  r.outcome = outcome;
  r.schedule_hash = "0000000000000001";
  RunResult result;
  result.seed = seed;
  r.result = encode_run_result(result);
  return r;
}

}  // namespace

TEST_CASE("a stored run reads back field for field") {
  const RunResult before = failing_run();
  const RunResult after = decode_run_result(encode_run_result(before));
  CHECK(encode_run_result(after) == encode_run_result(before));
  CHECK(after.failure->signature == "assertion|bank.c:41");
  CHECK(after.access_pairs->pairs.at(0).head_site == 0x1234);
  CHECK(after.access_pairs->pairs.at(0).tail_sync == 3);
  CHECK(after.output_tail == before.output_tail);
}

TEST_CASE("stored Falcon and spectra summaries and the strategy read back") {
  localize::FalconRun falcon;
  falcon.failed = true;
  falcon.dropped = 4;
  falcon.fixed_by_lifecycle = 7;
  localize::FalconSighting s;
  s.id.kind = FalconKind::W1W2;
  s.id.sites = {1, 2, 3};
  s.id.ops = {1, 0, 1};
  s.count = 5;
  s.location = 0x7000;
  s.location_name = "balance";
  s.threads = {1, 2};
  falcon.patterns.push_back(s);
  const localize::FalconRun f = decode_falcon_run(encode_falcon_run(falcon));
  CHECK(f.failed);
  CHECK(f.dropped == 4);
  CHECK(f.fixed_by_lifecycle == 7);
  // A run stored before the count existed reads back with none.
  CHECK(decode_falcon_run(R"({"failed": false, "dropped": 0, "patterns": []})").fixed_by_lifecycle == 0);
  REQUIRE(f.patterns.size() == 1);
  CHECK(f.patterns[0].id == s.id);
  CHECK(f.patterns[0].location_name == "balance");
  CHECK(f.patterns[0].threads == s.threads);

  localize::SpectraRun spectra;
  localize::ComponentObservation c;
  c.site = 9;
  c.call_site = 10;
  c.entries = 2;
  c.threads = 2;
  c.concurrent = true;
  c.concurrent_threads = {1, 2};
  c.first_entry = 3;
  spectra.components.push_back(c);
  const localize::SpectraRun back = decode_spectra_run(encode_spectra_run(spectra));
  REQUIRE(back.components.size() == 1);
  CHECK(back.components[0].concurrent);
  CHECK(back.components[0].concurrent_threads == c.concurrent_threads);
  CHECK(back.components[0].first_entry == 3);

  RunSpec spec;
  spec.strategy = StrategyKind::Pct;
  spec.pct_depth = 4;
  spec.pct_steps = 90;
  spec.preemption_bound = 2;
  spec.points = PointsMode::Sync;
  CHECK(decode_spec(encode_spec(spec)) == spec);
  CHECK_THROWS_AS(decode_run_result("{\"seed\": 1}"), DriverError);
}

TEST_CASE("every seeds strategy, SURW's estimates and a portfolio's calibration are stored") {
  for (const StrategyKind kind : {StrategyKind::Random, StrategyKind::Pct, StrategyKind::Pos, StrategyKind::Surw,
                                  StrategyKind::Portfolio, StrategyKind::Dfs}) {
    RunSpec spec;
    spec.strategy = kind;
    if (kind == StrategyKind::Surw) spec.surw_events = {3, 1, 40};
    CHECK(decode_spec(encode_spec(spec)) == spec);
    if (kind == StrategyKind::Surw) {
      spec.surw_uniform_percent = 50;
      CHECK(decode_spec(encode_spec(spec)) == spec);
    }
  }
  CHECK_THROWS_AS(decode_spec(R"({"strategy": "replay", "pct_depth": 3, "pct_steps": 0, "spurious_wakeups": false,
                                   "points": 0, "max_steps": 10})"),
                  DriverError);

  ReportHeader header;
  header.spec.strategy = StrategyKind::Portfolio;
  header.test.target = "./t";
  Portfolio portfolio;
  portfolio.base = header.spec;
  portfolio.profile = RunProfile{412, {5, 9}, true};
  portfolio.sync = RunProfile{37, {2, 3}, true};
  header.portfolio = portfolio;
  const ReportHeader back = decode_header(encode_header(header));
  REQUIRE(back.portfolio);
  CHECK(*back.portfolio == portfolio);
  CHECK(seed_spec(back, 17) == seed_spec(header, 17));
  header.portfolio.reset();
  header.spec.strategy = StrategyKind::Pct;
  CHECK_FALSE(decode_header(encode_header(header)).portfolio);
}

TEST_CASE("the store keeps generations apart and reads a seed stored twice once") {
  TempFile file("generations.db");
  BinaryIdentity old_build{"/t", "aa", 10, 1};
  BinaryIdentity new_build{"/t", "bb", 10, 2};
  {
    RunStore store(file.path.string());
    const StoreGeneration g1 = store.enter_generation(old_build);
    CHECK(g1.created);
    CHECK(g1.earlier_generations == 0);
    const std::int64_t i1 = store.begin_invocation(g1.id, "{}");
    store.add(g1.id, i1, row(1, "pass"));
    store.add(g1.id, i1, row(2, "assertion"));
    store.add(g1.id, i1, row(2, "assertion"));  // the same seed again: read once
    RunSpec pct;
    pct.strategy = StrategyKind::Pct;
    store.add(g1.id, i1, row(2, "pass", encode_spec(pct)));  // another strategy
    store.flush();
    const StoreGeneration again = store.enter_generation(old_build);
    CHECK_FALSE(again.created);
    CHECK(again.id == g1.id);
    CHECK(again.runs == 4);
    const StoreGeneration g2 = store.enter_generation(new_build);
    CHECK(g2.created);
    CHECK(g2.earlier_generations == 1);
    CHECK(store.count_runs(g2.id) == 0);
  }
  RunStore reopened(file.path.string());
  const auto g = reopened.find_generation(old_build);
  REQUIRE(g);
  const std::vector<StoredRun> runs = reopened.runs(g->id);
  REQUIRE(runs.size() == 3);  // seed 1, seed 2 (random), seed 2 (pct)
  CHECK(runs[0].seed == 1);
  CHECK(runs[1].seed == 2);
  CHECK(runs[2].seed == 2);
  CHECK(reopened.latest_generation() == g->id);
}

TEST_CASE("a file that is not a run store is refused with BadStore") {
  TempFile text("notes.db");
  {
    std::ofstream out(text.path);
    out << std::string(8192, 'x');
  }
  try {
    RunStore store(text.path.string());
    FAIL("opened a text file as a store");
  } catch (const DriverError& e) {
    CHECK(e.code() == ExitCode::BadStore);
    CHECK(std::string(e.what()).find("not a ctrlsched run store") != std::string::npos);
  }
  TempFile newer("newer.db");
  {
    RunStore store(newer.path.string());
  }
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(newer.path.c_str(), &db) == SQLITE_OK);
    sqlite3_exec(db, "UPDATE meta SET value = 'ctrlsched-store/99' WHERE key = 'schema'", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  try {
    RunStore store(newer.path.string());
    FAIL("opened a store of another version");
  } catch (const DriverError& e) {
    CHECK(e.code() == ExitCode::BadStore);
    CHECK(std::string(e.what()).find("another version") != std::string::npos);
  }
}

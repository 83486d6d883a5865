// The run store (--store FILE, docs/store.md): runs are kept across invocations in SQLite,
// `report --store` and `localize --store` give what the seeds run gave, a changed binary starts a
// new generation, a file that is not a store is refused with exit 7, and kill -9 of ctrlsched
// mid-run leaves a database that opens, with every run committed before the kill.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "e2e.h"

using namespace e2e;

namespace {

// A read-only look into a store, as any SQLite client would take it.
class Database {
 public:
  explicit Database(const fs::path& path) {
    ok_ = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK;
    if (ok_) sqlite3_busy_timeout(db_, 2000);
  }
  ~Database() { sqlite3_close(db_); }
  bool ok() const { return ok_; }
  // The first column of every row of `sql`, as text ("" for NULL); {"error: ..."} on failure.
  std::vector<std::string> column(const std::string& sql) const {
    std::vector<std::string> out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return {"error: " + std::string(sqlite3_errmsg(db_))};
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(stmt, 0);
      out.push_back(text ? reinterpret_cast<const char*>(text) : "");
    }
    if (rc != SQLITE_DONE) out.push_back("error: " + std::string(sqlite3_errmsg(db_)));
    sqlite3_finalize(stmt);
    return out;
  }
  std::string value(const std::string& sql) const {
    const auto rows = column(sql);
    return rows.empty() ? "" : rows.front();
  }
  long count(const std::string& sql) const {
    const std::string v = value(sql);
    return v.empty() || v.starts_with("error") ? -1 : std::stol(v);
  }

 private:
  sqlite3* db_ = nullptr;
  bool ok_ = false;
};

// `ctrlsched <words...>`, run in `dir`.
Process run_ctrlsched_in(const TempDir& dir, std::vector<std::string> words, double timeout = 120) {
  Command c;
  c.cwd = dir.path();
  c.argv = {ctrlsched_path()};
  c.argv.insert(c.argv.end(), words.begin(), words.end());
  c.timeout_seconds = timeout;
  return run(c);
}

// A --json report; throws (and so fails the test) when it is missing or not JSON.
Json parse_json_file(const fs::path& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

}  // namespace

TEST_CASE("--store keeps every run across invocations; report --store renders the seeds run's report", "[store]") {
  TempDir dir;
  const fs::path store = dir / "runs.db";
  const Process first = run_ctrlsched_in(dir, {"--seeds", "30", "--no-save", "--store", store.string(), "--json",
                                               (dir / "a.json").string(), example("check_then_act")});
  INFO(first.describe());
  REQUIRE(first.exit_code == 1);
  {
    Database db(store);
    REQUIRE(db.ok());
    CHECK(db.value("PRAGMA journal_mode") == "wal");
    CHECK(db.value("PRAGMA integrity_check") == "ok");
    CHECK(db.count("SELECT count(*) FROM runs") == 30);
    CHECK(db.count("SELECT count(*) FROM generations") == 1);
    // Every row says what ran and how it ended.
    CHECK(db.count("SELECT count(*) FROM runs WHERE strategy = '' OR outcome = '' OR length(schedule_hash) <> 16") == 0);
    CHECK(db.count("SELECT count(*) FROM runs WHERE outcome <> 'pass' AND signature = ''") == 0);
    CHECK(db.value("SELECT build_id FROM generations").size() == 40);  // the examples carry a GNU build id
  }
  // The same report from the store alone, nothing run.
  const Process report =
      run_ctrlsched_in(dir, {"report", "--store", store.string(), "--json", (dir / "r.json").string()});
  INFO(report.describe());
  CHECK(report.exit_code == 1);
  Json a = parse_json_file(dir / "a.json");
  Json r = parse_json_file(dir / "r.json");
  CHECK(r.at("runs") == a.at("runs"));
  CHECK(r.at("groups") == a.at("groups"));
  a["summary"].erase("elapsed_s");
  r["summary"].erase("elapsed_s");
  CHECK(r.at("summary") == a.at("summary"));
  const std::string text_line = first.out.substr(first.out.find("FAIL"));
  CHECK(contains(report.out, text_line.substr(0, text_line.find('\n'))));

  // A second invocation adds its runs to the same generation.
  const Process second = run_ctrlsched_in(dir, {"--seeds", "20", "--seed-start", "30", "--no-save", "--store",
                                                store.string(), example("check_then_act")});
  INFO(second.describe());
  CHECK(second.err.find("new build") == std::string::npos);
  const Process both =
      run_ctrlsched_in(dir, {"report", "--store", store.string(), "--json", (dir / "both.json").string()});
  const Json merged = parse_json_file(dir / "both.json");
  CHECK(merged.at("summary").at("seeds") == 50);
  REQUIRE(merged.at("runs").size() == 50);
  for (std::size_t i = 0; i < 30; ++i) CHECK(merged.at("runs")[i] == a.at("runs")[i]);
  Database db(store);
  CHECK(db.count("SELECT count(*) FROM generations") == 1);
  CHECK(db.count("SELECT count(*) FROM invocations") == 2);
}

TEST_CASE("merge --into puts the shards' stores together: report --store gives the single run's runs", "[store]") {
  TempDir dir;
  const std::string binary = example("check_then_act");
  const Process single =
      run_ctrlsched_in(dir, {"--seeds", "24", "--no-save", "--json", (dir / "single.json").string(), binary});
  INFO(single.describe());
  REQUIRE(single.exit_code == 1);
  for (const std::string shard : {"1", "2"}) {
    const Process part = run_ctrlsched_in(dir, {"--seeds", "24", "--shard", shard + "/2", "--no-save", "--store",
                                                (dir / ("shard-" + shard + ".db")).string(), binary});
    INFO(part.describe());
    REQUIRE((part.exit_code == 0 || part.exit_code == 1));
  }
  const fs::path all = dir / "all.db";
  const std::string shard1 = (dir / "shard-1.db").string(), shard2 = (dir / "shard-2.db").string();
  const Process merge = run_ctrlsched_in(dir, {"merge", "--into", all.string(), shard1, shard2});
  INFO(merge.describe());
  REQUIRE(merge.exit_code == 0);
  // The shards' headers are the same invocation (--shard is not part of it): one in the target.
  CHECK(merge.out == shard1 + ": added 12 runs, 1 invocations, 1 builds\n" + shard2 + ": added 12 runs, 0 invocations, 0 builds\n");
  // Copying a store again adds nothing.
  const Process again = run_ctrlsched_in(dir, {"merge", "--into", all.string(), shard2});
  CHECK(again.out == shard2 + ": added 0 runs, 0 invocations, 0 builds\n");

  const Process report =
      run_ctrlsched_in(dir, {"report", "--store", all.string(), "--json", (dir / "r.json").string()});
  INFO(report.describe());
  CHECK(report.exit_code == 1);
  const Json expected = parse_json_file(dir / "single.json");
  const Json merged = parse_json_file(dir / "r.json");
  CHECK(merged.at("runs") == expected.at("runs"));
  CHECK(merged.at("groups") == expected.at("groups"));
  CHECK(merged.at("summary").at("seeds") == 24);

  const Process missing = run_ctrlsched_in(dir, {"merge", "--into", all.string(), (dir / "nope.db").string()});
  CHECK(missing.exit_code == 7);
  CHECK(missing.err == "ctrlsched: merge: cannot read the run store " + (dir / "nope.db").string() + "\n");
  std::ofstream(dir / "text.db") << "not a database\n";
  const Process bad = run_ctrlsched_in(dir, {"merge", "--into", all.string(), (dir / "text.db").string()});
  CHECK(bad.exit_code == 7);
  CHECK(bad.err.starts_with("ctrlsched: merge: " + (dir / "text.db").string() + " is not a ctrlsched run store"));
  CHECK(Database(all).count("SELECT count(*) FROM runs") == 24);
}

TEST_CASE("a changed binary starts a new generation and says so in one line", "[store]") {
  TempDir dir;
  const fs::path store = dir / "runs.db";
  const fs::path test = dir / "the_test";
  fs::copy_file(example("correct_locks"), test);
  const Process old_build =
      run_ctrlsched_in(dir, {"--seeds", "10", "--no-save", "--store", store.string(), test.string()});
  INFO(old_build.describe());
  CHECK(old_build.exit_code == 0);
  CHECK(old_build.err.find("new build") == std::string::npos);
  fs::copy_file(example("check_then_act"), test, fs::copy_options::overwrite_existing);  // "rebuilt"
  const Process new_build =
      run_ctrlsched_in(dir, {"--seeds", "10", "--no-save", "--store", store.string(), test.string()});
  INFO(new_build.describe());
  CHECK(new_build.exit_code <= 1);
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = new_build.err.find("new build", at)) != std::string::npos; ++at) ++lines;
  CHECK(lines == 1);
  CHECK(contains(new_build.err, "ctrlsched: note: store " + store.string()));
  Database db(store);
  CHECK(db.count("SELECT count(*) FROM generations") == 2);
  CHECK(db.count("SELECT count(*) FROM runs") == 20);
  // The report is the new build's ten runs only.
  const Process report = run_ctrlsched_in(dir, {"report", "--store", store.string(), "--json",
                                                (dir / "r.json").string(), test.string()});
  INFO(report.describe());
  CHECK(parse_json_file(dir / "r.json").at("summary").at("seeds") == 10);
}

TEST_CASE("localize --store re-ranks the stored runs as --localize ranked them, without re-running seeds", "[store]") {
  TempDir dir;
  const fs::path store = dir / "runs.db";
  const std::string target = binary("example_inst", "lost_update");
  const Process seeds = run_ctrlsched_in(dir, {"--seeds", "60", "--localize", "--no-confirm", "--no-save", "--store",
                                               store.string(), "--json", (dir / "a.json").string(), target});
  INFO(seeds.describe());
  REQUIRE(seeds.exit_code == 1);
  const Process again = run_ctrlsched_in(dir, {"localize", "--store", store.string(), "--no-confirm", "--no-save",
                                               "--json", (dir / "b.json").string(), target});
  INFO(again.describe());
  CHECK(again.exit_code == 1);
  const Json a = parse_json_file(dir / "a.json");
  const Json b = parse_json_file(dir / "b.json");
  CHECK(b.at("runs") == a.at("runs"));
  REQUIRE(a.contains("localization"));
  CHECK(b.at("localization") == a.at("localization"));
  CHECK(contains(again.out, "Most suspicious interleavings"));
  // Nothing was added: localize reads the store, it does not write it.
  CHECK(Database(store).count("SELECT count(*) FROM runs") == 60);
}

TEST_CASE("a --store file that is not a run store: one line, exit 7", "[store]") {
  TempDir dir;
  const fs::path text = dir / "notes.txt";
  {
    std::ofstream out(text);
    out << "these are my notes, not a database\n" << std::string(4096, 'x');
  }
  const fs::path other = dir / "other.db";
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(other.c_str(), &db) == SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE things(x)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const std::string before = read_file(text);
  for (const fs::path& bad : {text, other}) {
    for (const std::vector<std::string>& words :
         {std::vector<std::string>{"--seeds", "5", "--no-save", "--store", bad.string(), example("correct_locks")},
          std::vector<std::string>{"report", "--store", bad.string()}}) {
      const Process p = run_ctrlsched_in(dir, words);
      INFO(p.describe());
      CHECK(p.exit_code == 7);
      CHECK(p.out.empty());
      CHECK(std::count(p.err.begin(), p.err.end(), '\n') == 1);
      CHECK(p.err.starts_with("ctrlsched: --store " + bad.string()));
      CHECK(contains(p.err, "not a ctrlsched run store"));
    }
  }
  CHECK(read_file(text) == before);  // left as it was
}

TEST_CASE("kill -9 of ctrlsched mid-run: the store opens, keeps every committed run, and takes more", "[store]") {
  TempDir dir;
  const fs::path store = dir / "runs.db";
  const fs::path test = dir / "fast_passing_test";
  fs::copy_file(example("correct_locks"), test);
  Command c;
  c.cwd = dir.path();
  c.argv = {ctrlsched_path(), "--seeds", "10000", "--no-save", "--quiet", "--store", store.string(), test.string()};
  c.timeout_seconds = 120;
  Process p;
  std::thread runner([&] { p = run(c); });
  struct JoinAtExit {
    std::thread& thread;
    ~JoinAtExit() {
      if (thread.joinable()) thread.join();
    }
  } join_at_exit{runner};
  // Wait until some batches are committed, then SIGKILL the driver (ours: a child of this process).
  long seen = 0;
  pid_t driver = 0;
  for (int i = 0; i < 3000 && seen < 60; ++i) {
    ::usleep(10000);
    if (!fs::exists(store)) continue;
    Database db(store);
    if (db.ok()) seen = std::max(seen, db.count("SELECT count(*) FROM runs"));
  }
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ec;
    if (fs::read_symlink(entry.path() / "exe", ec) != fs::path(ctrlsched_path()) || ec) continue;
    std::ifstream stat(entry.path() / "stat");
    const std::string line((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    std::istringstream fields(line.substr(line.rfind(')') + 1));
    std::string state;
    pid_t parent = 0;
    fields >> state >> parent;
    if (parent == ::getpid() && fs::read_symlink(entry.path() / "cwd", ec) == dir.path()) driver = static_cast<pid_t>(std::stol(name));
  }
  CHECK(seen >= 60);
  CHECK(driver > 0);
  if (driver > 0) ::kill(driver, SIGKILL);
  runner.join();
  INFO(p.describe());
  CHECK(p.term_signal == SIGKILL);
  // No test process outlives the driver (PR_SET_PDEATHSIG), served or exec'd.
  std::vector<pid_t> left = processes_running(test);
  for (int i = 0; i < 100 && !left.empty(); ++i) {
    ::usleep(20000);
    left = processes_running(test);
  }
  CHECK(left.empty());
  for (pid_t pid : left) ::kill(pid, SIGKILL);

  long after_kill = 0;
  {
    Database db(store);
    REQUIRE(db.ok());
    CHECK(db.value("PRAGMA integrity_check") == "ok");
    after_kill = db.count("SELECT count(*) FROM runs");
    CHECK(after_kill >= seen);
    CHECK(after_kill < 10000);  // it really was cut short
    // Whole rows only: every run's stored result is complete JSON for that seed.
    for (const std::string& row : db.column("SELECT seed || ' ' || result FROM runs")) {
      const auto space = row.find(' ');
      const Json result = Json::parse(row.substr(space + 1), nullptr, false);
      REQUIRE_FALSE(result.is_discarded());
      CHECK(std::to_string(result.at("seed").get<std::uint64_t>()) == row.substr(0, space));
    }
  }
  // A second invocation adds to it.
  const Process more = run_ctrlsched_in(dir, {"--seeds", "25", "--seed-start", "20000", "--no-save", "--store",
                                              store.string(), test.string()});
  INFO(more.describe());
  CHECK(more.exit_code == 0);
  Database db(store);
  CHECK(db.count("SELECT count(*) FROM runs") == after_kill + 25);
  CHECK(db.value("PRAGMA integrity_check") == "ok");
}

// The SQLite run store (see run_store.h and docs/store.md).
#include "store/run_store.h"

#include <filesystem>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

constexpr const char* kSchema = "ctrlsched-store/1";

// A prepared statement that finalizes itself.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  explicit operator bool() const { return stmt_ != nullptr; }
  sqlite3_stmt* get() const { return stmt_; }
  void bind(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void bind(int i, const std::string& v) { sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  int step() { return sqlite3_step(stmt_); }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
             : std::string();
  }
  bool null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace

void RunStore::fail(const std::string& doing) {
  const int code = db_ ? sqlite3_errcode(db_) : SQLITE_ERROR;
  const std::string why = db_ ? sqlite3_errmsg(db_) : "cannot open";
  if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
    throw DriverError(ExitCode::BadStore, "--store " + path_ + " is not a ctrlsched run store: " + why);
  }
  throw DriverError(ExitCode::BadStore, "--store " + path_ + ": " + doing + " failed: " + why);
}

void RunStore::exec(const char* sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
}

RunStore::RunStore(const std::string& path) : path_(path) {
  // A constructor that throws runs no destructor: close the connection here, or a file that is
  // not a run store would leak it (sqlite3_open_v2 allocates one even when it fails).
  try {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
      fail("opening");
    }
    sqlite3_busy_timeout(db_, 5000);  // another ctrlsched writing the same store: wait for its batch
    // The first read of a file that is not SQLite fails here with "file is not a database".
    exec("PRAGMA journal_mode=WAL");
    // WAL + NORMAL: a committed batch survives the process being killed (not a power loss).
    exec("PRAGMA synchronous=NORMAL");
    bool has_tables = false;
    {
      Statement any(db_, "SELECT count(*) FROM sqlite_master");
      if (!any || any.step() != SQLITE_ROW) fail("reading the schema");
      has_tables = any.integer(0) > 0;
    }
    if (has_tables) {
      Statement schema(db_, "SELECT value FROM meta WHERE key = 'schema'");
      if (!schema || schema.step() != SQLITE_ROW) {
        throw DriverError(ExitCode::BadStore, "--store " + path + " is a SQLite database but not a ctrlsched run store");
      }
      if (schema.text(0) != kSchema) {
        throw DriverError(ExitCode::BadStore, "--store " + path + " is a run store of another version (" + schema.text(0) +
                                                  ", this ctrlsched reads " + kSchema + ")");
      }
    } else {
      exec("BEGIN");
      exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      exec("INSERT INTO meta VALUES('schema', 'ctrlsched-store/1')");
      exec("CREATE TABLE generations(id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, path TEXT NOT NULL, "
           "build_id TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, modules TEXT)");
      exec("CREATE TABLE invocations(id INTEGER PRIMARY KEY, generation INTEGER NOT NULL REFERENCES generations(id), "
           "header TEXT NOT NULL)");
      exec("CREATE TABLE runs(id INTEGER PRIMARY KEY, generation INTEGER NOT NULL REFERENCES generations(id), "
           "invocation INTEGER NOT NULL REFERENCES invocations(id), seed INTEGER NOT NULL, strategy TEXT NOT NULL, "
           "spec TEXT NOT NULL, outcome TEXT NOT NULL, signature TEXT NOT NULL, schedule_hash TEXT NOT NULL, "
           "result TEXT NOT NULL, falcon TEXT, spectra TEXT, instrumented INTEGER NOT NULL)");
      exec("CREATE INDEX runs_by_generation ON runs(generation, seed)");
      exec("COMMIT");
    }
    if (sqlite3_prepare_v2(db_,
                           "INSERT INTO runs(generation, invocation, seed, strategy, spec, outcome, signature, "
                           "schedule_hash, result, falcon, spectra, instrumented) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &insert_, nullptr) != SQLITE_OK) {
      fail("preparing");
    }
  } catch (...) {
    sqlite3_finalize(insert_);
    sqlite3_close(db_);
    throw;
  }
}

RunStore::~RunStore() {
  try {
    flush();
  } catch (...) {
    // Nothing to report from a destructor; the runs of the open batch are lost, the rest is whole.
  }
  sqlite3_finalize(insert_);
  sqlite3_close(db_);
}

std::optional<StoreGeneration> RunStore::find_generation(const BinaryIdentity& binary) {
  Statement find(db_, "SELECT id, (SELECT count(*) FROM runs WHERE generation = generations.id) FROM generations "
                      "WHERE identity = ?");
  if (!find) fail("reading generations");
  find.bind(1, binary.key());
  if (find.step() != SQLITE_ROW) return std::nullopt;
  StoreGeneration g;
  g.id = find.integer(0);
  g.runs = find.integer(1);
  return g;
}

StoreGeneration RunStore::enter_generation(const BinaryIdentity& binary) {
  Statement others(db_, "SELECT count(*) FROM generations WHERE identity <> ?");
  if (!others) fail("reading generations");
  others.bind(1, binary.key());
  const std::int64_t earlier = others.step() == SQLITE_ROW ? others.integer(0) : 0;
  if (std::optional<StoreGeneration> found = find_generation(binary)) {
    found->earlier_generations = earlier;
    return *found;
  }
  Statement add(db_, "INSERT INTO generations(identity, path, build_id, size, mtime_ns) VALUES(?,?,?,?,?)");
  if (!add) fail("adding a generation");
  add.bind(1, binary.key());
  add.bind(2, binary.path);
  add.bind(3, binary.build_id);
  add.bind(4, static_cast<std::int64_t>(binary.size));
  add.bind(5, binary.mtime_ns);
  if (add.step() != SQLITE_DONE) fail("adding a generation");
  StoreGeneration g;
  g.id = sqlite3_last_insert_rowid(db_);
  g.created = true;
  g.earlier_generations = earlier;
  return g;
}

std::optional<std::int64_t> RunStore::latest_generation() {
  Statement latest(db_, "SELECT generation FROM invocations ORDER BY id DESC LIMIT 1");
  if (!latest) fail("reading invocations");
  if (latest.step() != SQLITE_ROW) return std::nullopt;
  return latest.integer(0);
}

std::int64_t RunStore::begin_invocation(std::int64_t generation, const std::string& header_json) {
  Statement add(db_, "INSERT INTO invocations(generation, header) VALUES(?, ?)");
  if (!add) fail("adding an invocation");
  add.bind(1, generation);
  add.bind(2, header_json);
  if (add.step() != SQLITE_DONE) fail("adding an invocation");
  return sqlite3_last_insert_rowid(db_);
}

std::string RunStore::latest_header(std::int64_t generation) {
  Statement latest(db_, "SELECT header FROM invocations WHERE generation = ? ORDER BY id DESC LIMIT 1");
  if (!latest) fail("reading invocations");
  latest.bind(1, generation);
  return latest.step() == SQLITE_ROW ? latest.text(0) : std::string();
}

void RunStore::set_modules(std::int64_t generation, const std::string& modules_json) {
  Statement set(db_, "UPDATE generations SET modules = ? WHERE id = ? AND modules IS NULL");
  if (!set) fail("writing modules");
  set.bind(1, modules_json);
  set.bind(2, generation);
  if (set.step() != SQLITE_DONE) fail("writing modules");
}

std::string RunStore::modules(std::int64_t generation) {
  Statement get(db_, "SELECT modules FROM generations WHERE id = ?");
  if (!get) fail("reading modules");
  get.bind(1, generation);
  return get.step() == SQLITE_ROW && !get.null(0) ? get.text(0) : std::string();
}

void RunStore::add(std::int64_t generation, std::int64_t invocation, const StoredRun& run) {
  if (!in_batch_) {
    exec("BEGIN");
    in_batch_ = true;
    batch_runs_ = 0;
    batch_started_ = std::chrono::steady_clock::now();
  }
  sqlite3_reset(insert_);
  sqlite3_clear_bindings(insert_);
  const auto text = [&](int i, const std::string& v) {
    sqlite3_bind_text(insert_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  };
  sqlite3_bind_int64(insert_, 1, generation);
  sqlite3_bind_int64(insert_, 2, invocation);
  sqlite3_bind_int64(insert_, 3, static_cast<std::int64_t>(run.seed));
  text(4, run.strategy);
  text(5, run.spec);
  text(6, run.outcome);
  text(7, run.signature);
  text(8, run.schedule_hash);
  text(9, run.result);
  if (run.falcon) text(10, *run.falcon);
  if (run.spectra) text(11, *run.spectra);
  sqlite3_bind_int(insert_, 12, run.instrumented ? 1 : 0);
  if (sqlite3_step(insert_) != SQLITE_DONE) fail("storing a run");
  ++batch_runs_;
  commit_if_due();
}

void RunStore::commit_if_due() {
  if (in_batch_ && (batch_runs_ >= kBatchRuns || std::chrono::steady_clock::now() - batch_started_ >= kBatchTime)) {
    flush();
  }
}

void RunStore::flush() {
  if (!in_batch_) return;
  in_batch_ = false;
  exec("COMMIT");
}

std::vector<StoredRun> RunStore::runs(std::int64_t generation) {
  // The later row of a seed stored twice with the same strategy (a rerun gives the same run).
  Statement all(db_,
                "SELECT seed, strategy, spec, outcome, signature, schedule_hash, result, falcon, spectra, instrumented "
                "FROM runs WHERE id IN (SELECT max(id) FROM runs WHERE generation = ? GROUP BY seed, spec) "
                "ORDER BY seed, id");
  if (!all) fail("reading runs");
  all.bind(1, generation);
  std::vector<StoredRun> out;
  int rc;
  while ((rc = all.step()) == SQLITE_ROW) {
    StoredRun r;
    r.seed = static_cast<std::uint64_t>(all.integer(0));
    r.strategy = all.text(1);
    r.spec = all.text(2);
    r.outcome = all.text(3);
    r.signature = all.text(4);
    r.schedule_hash = all.text(5);
    r.result = all.text(6);
    if (!all.null(7)) r.falcon = all.text(7);
    if (!all.null(8)) r.spectra = all.text(8);
    r.instrumented = all.integer(9) != 0;
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) fail("reading runs");
  return out;
}

std::int64_t RunStore::count_runs(std::int64_t generation) {
  Statement count(db_, "SELECT count(*) FROM runs WHERE generation = ?");
  if (!count) fail("counting runs");
  count.bind(1, generation);
  return count.step() == SQLITE_ROW ? count.integer(0) : 0;
}

StoreMergeCounts RunStore::absorb(const std::string& source_path) {
  std::error_code ec;
  // ATTACH would create a missing file: a typo must not pass as an empty store.
  if (!std::filesystem::is_regular_file(source_path, ec)) {
    throw DriverError(ExitCode::BadStore, "merge: cannot read the run store " + source_path);
  }
  flush();
  Statement attach(db_, "ATTACH DATABASE ? AS source");
  if (!attach) fail("attaching " + source_path);
  attach.bind(1, source_path);
  if (attach.step() != SQLITE_DONE) {
    throw DriverError(ExitCode::BadStore, "merge: " + source_path + " is not a ctrlsched run store: " + sqlite3_errmsg(db_));
  }
  StoreMergeCounts counts;
  try {
    {
      Statement schema(db_, "SELECT value FROM source.meta WHERE key = 'schema'");
      if (!schema || schema.step() != SQLITE_ROW || schema.text(0) != kSchema) {
        throw DriverError(ExitCode::BadStore, "merge: " + source_path + " is not a ctrlsched run store of " + kSchema);
      }
    }
    exec("BEGIN");
    // Generations are matched by their identity (the build id when the binary has one, so the same
    // build run on several machines is one generation).
    Statement generations(db_,
                          "INSERT INTO main.generations(identity, path, build_id, size, mtime_ns, modules) "
                          "SELECT identity, path, build_id, size, mtime_ns, modules FROM source.generations "
                          "WHERE identity NOT IN (SELECT identity FROM main.generations) ORDER BY id");
    if (!generations || generations.step() != SQLITE_DONE) fail("merging generations");
    counts.generations_created = sqlite3_changes(db_);
    exec("UPDATE main.generations SET modules = (SELECT s.modules FROM source.generations s "
         "WHERE s.identity = main.generations.identity) WHERE modules IS NULL");
    // Invocations in their order; one with the same header in the same generation is the same
    // invocation (merging a store twice adds nothing).
    exec("CREATE TEMP TABLE IF NOT EXISTS invocation_map(source_id INTEGER PRIMARY KEY, target_id INTEGER NOT NULL)");
    exec("DELETE FROM temp.invocation_map");
    Statement invocations(db_,
                          "SELECT i.id, g.id, i.header FROM source.invocations i JOIN source.generations sg ON "
                          "sg.id = i.generation JOIN main.generations g ON g.identity = sg.identity ORDER BY i.id");
    if (!invocations) fail("reading " + source_path);
    int rc;
    while ((rc = invocations.step()) == SQLITE_ROW) {
      const std::int64_t generation = invocations.integer(1);
      const std::string header = invocations.text(2);
      Statement existing(db_, "SELECT id FROM main.invocations WHERE generation = ? AND header = ? ORDER BY id LIMIT 1");
      if (!existing) fail("reading invocations");
      existing.bind(1, generation);
      existing.bind(2, header);
      std::int64_t target = 0;
      if (existing.step() == SQLITE_ROW) {
        target = existing.integer(0);
      } else {
        target = begin_invocation(generation, header);
        ++counts.invocations_added;
      }
      Statement map(db_, "INSERT INTO temp.invocation_map VALUES(?, ?)");
      if (!map) fail("merging invocations");
      map.bind(1, invocations.integer(0));
      map.bind(2, target);
      if (map.step() != SQLITE_DONE) fail("merging invocations");
    }
    if (rc != SQLITE_DONE) fail("reading " + source_path);
    // Runs, skipping a row the target already has word for word.
    Statement runs(db_,
                   "INSERT INTO main.runs(generation, invocation, seed, strategy, spec, outcome, signature, "
                   "schedule_hash, result, falcon, spectra, instrumented) "
                   "SELECT g.id, m.target_id, r.seed, r.strategy, r.spec, r.outcome, r.signature, r.schedule_hash, "
                   "r.result, r.falcon, r.spectra, r.instrumented FROM source.runs r "
                   "JOIN source.generations sg ON sg.id = r.generation JOIN main.generations g ON g.identity = sg.identity "
                   "JOIN temp.invocation_map m ON m.source_id = r.invocation "
                   "WHERE NOT EXISTS (SELECT 1 FROM main.runs t WHERE t.generation = g.id AND t.seed = r.seed AND "
                   "t.spec = r.spec AND t.result = r.result AND t.falcon IS r.falcon AND t.spectra IS r.spectra) "
                   "ORDER BY r.id");
    if (!runs || runs.step() != SQLITE_DONE) fail("merging runs");
    counts.runs_added = sqlite3_changes(db_);
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_exec(db_, "DETACH DATABASE source", nullptr, nullptr, nullptr);
    throw;
  }
  exec("DETACH DATABASE source");
  return counts;
}

}  // namespace ctrlsched::driver

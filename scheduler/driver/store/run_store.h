// store/ — the persistent run store of `--store FILE` (docs/store.md): every run of a seeds run
// kept in a SQLite database (WAL mode), by generation of the test binary, for `ctrlsched
// localize --store` and `ctrlsched report --store` to work over later without re-running seeds.
//
// Owns: the database (schema, opening and checking it, batched writes, reading back), the binary
// identity that keys a generation (binary_identity), the stored form of a run and of the
// collectors' summaries (run_codec), and rebuilding a Report and LocalizationData from the rows
// (stored_report).
// May call: localize/ (LocalizationData, RecordNames), report/, runs/. Only the driver writes the
// store, never the shim: SQLite stays out of the test process and out of the policy core.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/binary_identity.h"

namespace ctrlsched::driver {

// One run as stored: the encoded forms of run_codec.h.
struct StoredRun {
  std::uint64_t seed = 0;
  std::string strategy;        // strategy_text(spec), readable
  std::string spec;            // encode_spec
  std::string outcome;         // to_string(kind)
  std::string signature;       // the failure signature, "" for a pass
  std::string schedule_hash;   // 16 hex digits
  std::string result;          // encode_run_result
  std::optional<std::string> falcon;   // encode_falcon_run, when the run collected it
  std::optional<std::string> spectra;  // encode_spectra_run
  bool instrumented = false;
};

struct StoreGeneration {
  std::int64_t id = 0;
  bool created = false;           // this binary had no generation yet
  std::int64_t earlier_generations = 0;  // generations of other builds already in the store
  std::int64_t runs = 0;          // runs stored for it before this invocation
};

// What absorbing another store added.
struct StoreMergeCounts {
  std::int64_t generations_created = 0;
  std::int64_t invocations_added = 0;
  std::int64_t runs_added = 0;
};

class RunStore {
 public:
  // Opens or creates the database. Throws DriverError(BadStore) when the file is not SQLite, is
  // corrupt, or is a SQLite database that is not a ctrlsched run store.
  explicit RunStore(const std::string& path);
  ~RunStore();  // commits what is pending
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // The generation of this build of the binary, created when new.
  StoreGeneration enter_generation(const BinaryIdentity& binary);
  // The generation of this build, if the store has one (reading commands create nothing).
  std::optional<StoreGeneration> find_generation(const BinaryIdentity& binary);
  // The generation of the most recent invocation, whatever binary it ran (ctrlsched report).
  std::optional<std::int64_t> latest_generation();

  // An invocation (one seeds run) of a generation: its report header as JSON.
  std::int64_t begin_invocation(std::int64_t generation, const std::string& header_json);
  // The header of the generation's latest invocation, "" when none.
  std::string latest_header(std::int64_t generation);

  // The module table the site names need (RecordNames), once per generation.
  void set_modules(std::int64_t generation, const std::string& modules_json);
  std::string modules(std::int64_t generation);

  // Buffers a run; the batch is committed every kBatchRuns runs or kBatchTime, whichever first,
  // and by flush(). A SIGKILL loses at most the open batch; committed runs are whole.
  void add(std::int64_t generation, std::int64_t invocation, const StoredRun& run);
  void commit_if_due();
  void flush();

  // Every run of a generation, by seed (for a seed stored twice with the same strategy, the
  // later row).
  std::vector<StoredRun> runs(std::int64_t generation);
  std::int64_t count_runs(std::int64_t generation);

  // Copies every generation, invocation and run of the store at `source_path` into this one
  // (`ctrlsched merge --into`), matching generations by identity; rows this store already holds
  // are not copied again. One transaction: on an error nothing is added. Throws
  // DriverError(BadStore) when the source is missing or not a run store.
  StoreMergeCounts absorb(const std::string& source_path);

 private:
  void exec(const char* sql);
  void fail(const std::string& doing);
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  std::string path_;
  bool in_batch_ = false;
  std::size_t batch_runs_ = 0;
  std::chrono::steady_clock::time_point batch_started_;
};

inline constexpr std::size_t kBatchRuns = 512;
inline constexpr std::chrono::milliseconds kBatchTime{250};

}  // namespace ctrlsched::driver

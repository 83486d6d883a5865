// The seeds mode's side of `--store FILE`: opens the store, finds or starts the generation of the
// test binary (one line on stderr when a changed binary starts a new one), and stores every
// finished run with its summaries, in batched transactions.
#pragma once

#include <cstdint>
#include <string>

#include "localize/localization.h"
#include "report/report.h"
#include "store/run_store.h"

namespace ctrlsched::driver {

class StoreWriter {
 public:
  // `binary` is the program as launched (its path after the target checks).
  StoreWriter(const std::string& path, const std::string& binary, const ReportHeader& header);
  // `index` is the run's index in the seeds loop; `data` the localization data it was added to
  // (nullptr without --localize: the run collected no summaries).
  void add(std::uint64_t index, const RunResult& result, const RunSpec& spec, const LocalizationData* data);
  void tick() { store_.commit_if_due(); }
  void flush() { store_.flush(); }

 private:
  std::string path_;
  RunStore store_;
  StoreGeneration generation_;
  std::int64_t invocation_ = 0;
  bool modules_written_ = false;
};

// The report header as stored with each invocation, and read back.
std::string encode_header(const ReportHeader& header);
ReportHeader decode_header(const std::string& text);

}  // namespace ctrlsched::driver

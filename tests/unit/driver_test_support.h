// Helpers that several of the driver's unit tests (driver_*_test.cc) use: command lines, run
// records filled by hand, and small traces with a table symbolizer. They are here once, not
// copied into each file: the test files of a binary are compiled together in unity batches
// (cmake/ctrlschedBuildTime.cmake), where two copies under one name would clash. A test file
// names the ones it uses with using-declarations.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrlsched/block_spectra.h"
#include "ctrlsched/falcon_patterns.h"
#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/trace_format.h"
#include "exit_codes.h"
#include "options/command_line.h"
#include "runs/run_result.h"

namespace ctrlsched::driver::testing {

// ---------------------------------------------------------------------------------------------
// Command lines

inline CommandLine parse(std::vector<std::string> args) { return parse_command_line(args); }

// The usage error message for `args` (exit code 2); fails the test if parsing succeeds.
inline std::string usage(std::vector<std::string> args) {
  try {
    parse_command_line(args);
  } catch (const DriverError& e) {
    CHECK(e.code() == ExitCode::Usage);
    return e.what();
  }
  FAIL("no usage error for this command line");
  return {};
}

// ---------------------------------------------------------------------------------------------
// Run records

// A zeroed record whose shim has started, with max_steps 1000.
inline std::unique_ptr<RunRecord> started_record() {
  auto record = std::make_unique<RunRecord>();
  std::memset(record.get(), 0, sizeof(RunRecord));
  record->shim_started = 1;
  record->config.max_steps = 1000;
  return record;
}

inline int exited(int status) { return (status & 0xff) << 8; }  // as waitpid reports an exit

// A zeroed record with room for the summary area, like the driver's memfd, and one module:
// /tmp/prog at bias 0x555555554000.
struct RecordBuffer {
  std::unique_ptr<std::uint8_t[]> bytes{new std::uint8_t[kLogRegionOffset]()};
  RecordBuffer() {
    RunRecord& r = record();
    r.modules.count = 1;
    std::strcpy(r.modules.modules[0].path, "/tmp/prog");
    r.modules.modules[0].bias = 0x555555554000;
    r.modules.modules[0].size = 0x5000;
  }
  RunRecord& record() { return *reinterpret_cast<RunRecord*>(bytes.get()); }
  FalconPatternSummary& falcon() { return *reinterpret_cast<FalconPatternSummary*>(bytes.get() + kFalconOffset); }
  BlockSpectraSummary& spectra() { return *reinterpret_cast<BlockSpectraSummary*>(bytes.get() + kSpectraOffset); }
};

// Symbolizes offsets as "prog.c:<offset>" in function "f<offset>", and data as "g<offset>".
inline SourceLocation fake_symbolize(std::string_view frame) {
  const auto plus = frame.rfind("+0x");
  const std::string offset = std::to_string(std::stoull(std::string(frame.substr(plus + 3)), nullptr, 16));
  return {std::string(frame), "f" + offset, "/src/prog.c", static_cast<std::uint32_t>(std::stoul(offset))};
}
inline std::string fake_data(const std::string&, std::uint64_t offset) { return "g" + std::to_string(offset); }

// ---------------------------------------------------------------------------------------------
// Traces

// An event of size 0 and no aux field.
inline TraceEvent event(EventKind kind, std::uint32_t thread, std::uint64_t site, std::uint64_t address = 0) {
  return TraceEvent{static_cast<std::uint8_t>(kind), 0, 0, thread, address, site};
}

// Offsets (already stepped back from the return address) to places, from a fixed table; an
// offset the table does not have is unknown.
class TableSymbolizer final : public localize::Symbolizer {
 public:
  using Table = std::map<std::uint64_t, localize::SymbolizedSite>;
  explicit TableSymbolizer(Table table) : table_(std::move(table)) {}
  localize::SymbolizedSite symbolize(const std::string&, std::uint64_t offset) override {
    const auto it = table_.find(offset);
    return it == table_.end() ? localize::SymbolizedSite{} : it->second;
  }

 private:
  Table table_;
};

}  // namespace ctrlsched::driver::testing

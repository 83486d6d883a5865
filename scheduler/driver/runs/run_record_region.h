// The shared-memory run record of one run (see ctrlsched/run_record.h for the protocol): a memfd
// of kRunRecordBytes mapped MAP_SHARED, owned RAII-style so no run leaks a descriptor or mapping.
//
// The memfd is created close-on-exec so that parallel runs never inherit each other's records;
// the child clears the flag on its own record only (child_launch.cc) before exec.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <span>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/run_spec.h"
#include "ctrlsched/schedule.h"

namespace ctrlsched::driver {

// The RunConfig the shim reads for `spec` (strategy as in the spec, verify off).
RunConfig run_config_for(const RunSpec& spec);
// The spin budget (--spin-budget, in ms; 0 = never preempt) that every later run_config_for
// puts into the run's config. Set once, before any run, by the entry point.
void set_spin_budget_ms(std::uint64_t ms);

// Encodes decisions for the input log; throws DriverError(Internal) if they exceed `capacity`.
std::vector<std::uint8_t> encode_input_log(std::span<const Decision> decisions, std::uint64_t capacity);

class RunRecordRegion {
 public:
  // Creates, sizes and maps a fresh record; throws DriverError(Internal) on failure.
  RunRecordRegion();
  ~RunRecordRegion();
  RunRecordRegion(RunRecordRegion&& other) noexcept;
  RunRecordRegion& operator=(RunRecordRegion&&) = delete;
  RunRecordRegion(const RunRecordRegion&) = delete;

  int fd() const { return fd_; }
  RunRecord& record() { return *record_; }
  const RunRecord& record() const { return *record_; }

  // Writes the header, the config and the encoded input log (replay / verify).
  void prepare(const RunConfig& config, std::span<const std::uint8_t> input_log);

  // The decisions the shim logged, clamped to the log's capacity (nullopt if malformed).
  std::optional<std::vector<Decision>> output_decisions() const;

 private:
  int fd_ = -1;
  RunRecord* record_ = nullptr;
};

// The schedule a finished run logged, named by `handle`; nullopt with a reason in `problem` when
// the log was truncated, does not decode, or does not hash to the record's schedule hash (a file
// that parse_schedule would reject must never be written).
std::optional<Schedule> recorded_schedule(const RunRecordRegion& region, const std::string& handle,
                                          std::string* problem);

}  // namespace ctrlsched::driver

// Run record regions: memfd + mapping lifetime, header initialization, log access.
#include "runs/run_record_region.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

[[noreturn]] void internal(const std::string& what) {
  throw DriverError(ExitCode::Internal, what + ": " + std::strerror(errno));
}

std::uint64_t g_spin_budget_us = kDefaultSpinBudgetUs;

}  // namespace

void set_spin_budget_ms(std::uint64_t ms) {
  g_spin_budget_us = ms == 0 ? kSpinBudgetNever : ms * 1000;
}

RunConfig run_config_for(const RunSpec& spec) {
  RunConfig config{};
  config.seed = spec.seed;
  config.strategy = static_cast<std::uint32_t>(spec.strategy);
  config.pct_depth = spec.pct_depth;
  config.pct_steps = spec.pct_steps;
  config.has_preemption_bound = spec.preemption_bound.has_value() ? 1 : 0;
  config.preemption_bound = spec.preemption_bound.value_or(0);
  config.spurious_wakeups = spec.spurious_wakeups ? 1 : 0;
  config.points = static_cast<std::uint32_t>(spec.points);
  config.max_steps = spec.max_steps;
  config.verify_input_log = 0;
  config.surw_thread_count = static_cast<std::uint32_t>(std::min(spec.surw_events.size(), kRecordSurwThreads));
  for (std::uint32_t t = 0; t < config.surw_thread_count; ++t) config.surw_events[t] = spec.surw_events[t];
  config.surw_uniform_percent = spec.surw_uniform_percent;
  config.spin_budget_us = g_spin_budget_us;
  return config;
}

std::vector<std::uint8_t> encode_input_log(std::span<const Decision> decisions, std::uint64_t capacity) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(decisions.size() * 2);
  std::uint8_t buffer[kMaxEncodedDecision];
  for (const Decision& d : decisions) {
    const std::size_t n = encode_decision(d, buffer);
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  if (bytes.size() > capacity) {
    throw DriverError(ExitCode::Internal, "the schedule (" + std::to_string(decisions.size()) +
                                              " decisions) does not fit the run record's input log");
  }
  return bytes;
}

RunRecordRegion::RunRecordRegion() {
  fd_ = ::memfd_create("ctrlsched-run-record", MFD_CLOEXEC);
  if (fd_ < 0) internal("memfd_create for the run record failed");
  if (::ftruncate(fd_, static_cast<off_t>(kRunRecordBytes)) != 0) {
    const int saved = errno;
    ::close(fd_);
    errno = saved;
    internal("sizing the run record failed");
  }
  void* map = ::mmap(nullptr, kRunRecordBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (map == MAP_FAILED) {
    const int saved = errno;
    ::close(fd_);
    errno = saved;
    internal("mapping the run record failed");
  }
  record_ = static_cast<RunRecord*>(map);
}

RunRecordRegion::~RunRecordRegion() {
  if (record_) ::munmap(record_, kRunRecordBytes);
  if (fd_ >= 0) ::close(fd_);
}

RunRecordRegion::RunRecordRegion(RunRecordRegion&& other) noexcept
    : fd_(other.fd_), record_(other.record_) {
  other.fd_ = -1;
  other.record_ = nullptr;
}

void RunRecordRegion::prepare(const RunConfig& config, std::span<const std::uint8_t> input_log) {
  RunRecord& r = *record_;
  r.magic = kRunRecordMagic;
  r.version = kRunRecordVersion;
  r.total_bytes = kRunRecordBytes;
  r.owner_pid = 0;
  r.config = config;
  r.input_log_offset = kLogRegionOffset;
  r.input_log_bytes = input_log.size();
  r.output_log_offset = kLogRegionOffset + kLogRegionBytes;
  r.output_log_capacity = kLogRegionBytes;
  if (!input_log.empty()) {
    std::memcpy(reinterpret_cast<std::uint8_t*>(record_) + kLogRegionOffset, input_log.data(),
                input_log.size());
  }
}

std::optional<std::vector<Decision>> RunRecordRegion::output_decisions() const {
  const RunRecord& r = *record_;
  const std::uint64_t bytes = std::min<std::uint64_t>(r.output_log_bytes, kLogRegionBytes);
  const auto* base = reinterpret_cast<const std::uint8_t*>(record_) + kLogRegionOffset + kLogRegionBytes;
  return decode_decisions(std::span<const std::uint8_t>(base, static_cast<std::size_t>(bytes)));
}

std::optional<Schedule> recorded_schedule(const RunRecordRegion& region, const std::string& handle,
                                          std::string* problem) {
  const RunRecord& record = region.record();
  if (record.output_log_truncated) {
    *problem = "the decision log overflowed the run record";
    return std::nullopt;
  }
  std::optional<std::vector<Decision>> decisions = region.output_decisions();
  if (!decisions) {
    *problem = "the decision log is malformed";
    return std::nullopt;
  }
  const std::uint64_t hash = hash_decisions(*decisions);
  if (hash != record.schedule_hash) {
    *problem = "the decision log hashes to " + format_hash(hash) + " but the record says " +
               format_hash(record.schedule_hash);
    return std::nullopt;
  }
  return Schedule{handle, hash, std::move(*decisions)};
}

}  // namespace ctrlsched::driver

// Switch points in and out of the run record (see switch_log.h). The plan is read once at
// start-up; the log is written with plain stores as the run goes, so a crash loses nothing.
#include "switch_log.h"

#include <cstring>
#include <vector>

#include "ctrlsched/preemption_schedule.h"

namespace ctrlsched::shim {
namespace {

class RecordSwitchSink final : public SwitchSink {
 public:
  explicit RecordSwitchSink(RunRecord* record)
      : header_(reinterpret_cast<SwitchLogHeader*>(reinterpret_cast<std::uint8_t*>(record) + kSwitchLogOffset)),
        entries_(reinterpret_cast<SwitchPoint*>(header_ + 1)) {
    header_->count = 0;
    header_->truncated = 0;
  }

  void append(const SwitchPoint& point) override {
    if (header_->count == kSwitchLogCapacity) {
      header_->truncated = 1;
      return;
    }
    entries_[header_->count] = point;
    ++header_->count;
  }

 private:
  SwitchLogHeader* header_;
  SwitchPoint* entries_;
};

}  // namespace

Strategy* make_planned_preemption_strategy(const RunRecord* record) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(record) + record->input_log_offset;
  std::vector<SwitchPoint> plan(record->input_log_bytes / sizeof(SwitchPoint));
  if (!plan.empty()) std::memcpy(plan.data(), bytes, plan.size() * sizeof(SwitchPoint));
  return make_preemption_strategy(std::move(plan)).release();
}

Strategy* record_switches(Strategy& inner, RunRecord* record) {
  auto* sink = new RecordSwitchSink(record);
  return new SwitchRecordingStrategy(inner, *sink);
}

}  // namespace ctrlsched::shim

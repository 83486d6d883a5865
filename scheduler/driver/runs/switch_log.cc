// Reading a run record's switch log (see switch_log.h).
#include "runs/switch_log.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ctrlsched::driver {

RecordedSwitches recorded_switches(const RunRecord& record) {
  const auto* base = reinterpret_cast<const std::uint8_t*>(&record) + kSwitchLogOffset;
  SwitchLogHeader header;
  std::memcpy(&header, base, sizeof header);
  RecordedSwitches log;
  log.truncated = header.truncated != 0;
  const std::uint64_t count = std::min<std::uint64_t>(header.count, kSwitchLogCapacity);
  log.entries.resize(static_cast<std::size_t>(count));
  if (count > 0) std::memcpy(log.entries.data(), base + sizeof header, log.entries.size() * sizeof(SwitchPoint));
  return log;
}

}  // namespace ctrlsched::driver

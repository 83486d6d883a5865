// Finding an online collector's summary in a finished run's record.
#pragma once

#include <cstdint>

#include "ctrlsched/run_record.h"

namespace ctrlsched::driver {

// The summary that collector `collector` (a kCollect* bit) keeps at `offset` of the record, or
// nullptr when the run did not ask for it or the collector never started (its magic is missing).
template <class Summary>
const Summary* collector_summary(const RunRecord& record, std::uint32_t collector, std::uint64_t offset,
                                 std::uint32_t magic) {
  if (!(record.config.collectors & collector)) return nullptr;
  const auto* summary = reinterpret_cast<const Summary*>(reinterpret_cast<const std::uint8_t*>(&record) + offset);
  return summary->magic == magic ? summary : nullptr;
}

}  // namespace ctrlsched::driver

// The access-pair collector: see access_pairs.cc and ctrlsched/access_pairs.h.
#pragma once

#include "ctrlsched/run_record.h"

namespace ctrlsched::shim {

// Registers the collector; its summary lives in `record` at kSummaryOffset.
void start_access_pair_collector(RunRecord* record);

}  // namespace ctrlsched::shim

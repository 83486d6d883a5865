// The Falcon pattern collector: see falcon_collector.cc and ctrlsched/falcon_patterns.h.
#pragma once

#include "ctrlsched/run_record.h"

namespace ctrlsched::shim {

// Registers the collector; its summary lives in `record` at kFalconOffset.
void start_falcon_collector(RunRecord* record);

}  // namespace ctrlsched::shim

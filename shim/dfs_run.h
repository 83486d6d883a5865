// `--strategy dfs` in the shim: the strategy of one schedule of the exploration, following the
// driver's prefix (the record's input log, read in place) and writing the step log into the
// record (ctrlsched/dfs.h).
#pragma once

#include <cstdint>
#include <span>

#include "ctrlsched/run_record.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched::shim {

// Never freed (see Runtime): library destructors may still reach scheduling points at exit.
Strategy* make_dfs_run_strategy(RunRecord* record, std::span<const std::uint8_t> prefix);

}  // namespace ctrlsched::shim

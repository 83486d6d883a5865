// The block-spectra collector (SCURF): see spectra_collector.cc and ctrlsched/block_spectra.h.
#pragma once

#include "ctrlsched/run_record.h"

namespace ctrlsched::shim {

// Registers the collector; its summary lives in `record` at kSpectraOffset.
void start_spectra_collector(RunRecord* record);

}  // namespace ctrlsched::shim

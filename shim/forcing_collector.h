// Directed runs (RunConfig::force): the collector that tells the forcing strategy what each
// thread performed. Registering it also sends every instrumented access through the slow path,
// where the engine records each thread's pending access before its scheduling point.
#pragma once

#include "ctrlsched/forcing.h"

namespace ctrlsched::shim {

void start_forcing_collector(ForcingStrategy* forcing);

}  // namespace ctrlsched::shim

// The stored form of a run and of the collectors' summaries the localization reads (docs/store.md,
// "What a run row holds"): JSON text, every field, so a run read back is the run that was written.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ctrlsched/localize/falcon.h"
#include "ctrlsched/localize/spectra.h"
#include "ctrlsched/run_spec.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

std::string encode_run_result(const RunResult& run);
// Throws DriverError(BadStore) when the text is not a stored run.
RunResult decode_run_result(const std::string& text);

std::string encode_falcon_run(const localize::FalconRun& run);
localize::FalconRun decode_falcon_run(const std::string& text);

std::string encode_spectra_run(const localize::SpectraRun& run);
localize::SpectraRun decode_spectra_run(const std::string& text);

// The strategy and its parameters (the seed and expected hash are not part of it).
std::string encode_spec(const RunSpec& spec);
RunSpec decode_spec(const std::string& text);

}  // namespace ctrlsched::driver

// The machine-readable report (--json FILE), schema "ctrlsched-run/1", documented field by field
// in docs/json-schema.md. Deterministic except summary.elapsed_s: per-run wall times are left out
// on purpose so two reports of the same command can be compared with diff.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/report.h"

namespace ctrlsched::driver {

inline constexpr const char* kJsonSchema = "ctrlsched-run/1";

// Keys keep the order docs/json-schema.md lists them in.
nlohmann::ordered_json report_json(const Report& report);
// report_json(report).dump(2) plus a final newline.
std::string render_json(const Report& report);

}  // namespace ctrlsched::driver

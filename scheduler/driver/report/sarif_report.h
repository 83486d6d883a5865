// SARIF 2.1.0 rendering of a seeds run (`--sarif FILE`, docs/reports.md): one result per failure
// group, for code-scanning dashboards (GitHub, Azure DevOps, VS Code's SARIF viewer).
//
//   rules             one per failing outcome kind: ctrlsched/assertion, ctrlsched/deadlock, ...
//   result            the group: message, failure site as the primary location, the signature as
//                     a partial fingerprint, seeds/replay command in properties
//   codeFlows         the first failing seed's interleaving (a traced rerun, thread_flow.h): one
//                     threadFlow per thread, executionOrder giving the global order
//   relatedLocations  the accesses of the interleaving patterns localization confirmed
//                     (--localize), on the group of the first failing seed they explain
// Pure: the traced flows and the localization object come in as values.
#pragma once

#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report/thread_flow.h"

namespace ctrlsched::driver {

// `flows[i]` is group i's traced interleaving (missing entries and nullopt: no codeFlow);
// `localization` is the JSON report's "localization" object, or null.
nlohmann::ordered_json sarif_json(const Report& report, std::span<const std::optional<ThreadFlow>> flows,
                                  const nlohmann::ordered_json& localization);
std::string render_sarif(const Report& report, std::span<const std::optional<ThreadFlow>> flows,
                         const nlohmann::ordered_json& localization);

// A file path as a SARIF artifact URI: absolute paths become file:// URIs; both are
// percent-encoded (RFC 3986) so spaces and '#' survive.
std::string artifact_uri(const std::string& path);

}  // namespace ctrlsched::driver

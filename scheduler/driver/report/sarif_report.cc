// SARIF 2.1.0 rendering (see sarif_report.h and docs/reports.md).
#include "report/sarif_report.h"

#include <cstdio>
#include <map>

#ifndef CTRLSCHED_VERSION
#define CTRLSCHED_VERSION "unknown"
#endif

namespace ctrlsched::driver {
namespace {

using Json = nlohmann::ordered_json;

struct RuleText {
  OutcomeKind kind;
  const char* name;
  const char* description;
};

// Every failing outcome kind is a rule; the order gives ruleIndex.
constexpr RuleText kRules[] = {
    {OutcomeKind::Assertion, "AssertionFailed", "An assertion failed under some thread interleaving."},
    {OutcomeKind::Signal, "CrashedBySignal", "The test was killed by a signal under some thread interleaving."},
    {OutcomeKind::Exit, "UnexpectedExit", "The test exited with a failing status under some thread interleaving."},
    {OutcomeKind::Deadlock, "Deadlock", "Every live thread was blocked: a deadlock."},
    {OutcomeKind::Hang, "Hang", "The run exceeded its step budget (livelock or a very long run)."},
    {OutcomeKind::Timeout, "Timeout", "The run exceeded its wall-clock time limit."},
    {OutcomeKind::Diverged, "Diverged", "A replayed run did not follow its recorded schedule."},
    {OutcomeKind::Error, "Error", "The run could not be completed (a ctrlsched or shim error)."},
};

std::string rule_id(OutcomeKind kind) { return "ctrlsched/" + std::string(to_string(kind)); }

std::size_t rule_index(OutcomeKind kind) {
  for (std::size_t i = 0; i < std::size(kRules); ++i)
    if (kRules[i].kind == kind) return i;
  return std::size(kRules) - 1;  // Pass never forms a group
}

Json physical(const std::string& file, std::uint32_t line) {
  Json p;
  p["artifactLocation"] = Json{{"uri", artifact_uri(file)}};
  if (line != 0) p["region"] = Json{{"startLine", line}};
  return p;
}

// The failure site, or the test binary when the failure has no source location.
Json failure_location(const FailureDetails& f, const std::string& target) {
  Json location;
  location["physicalLocation"] = physical(f.file.empty() ? target : f.file, f.file.empty() ? 0 : f.line);
  if (!f.function.empty()) location["logicalLocations"] = Json::array({Json{{"name", f.function}, {"kind", "function"}}});
  return location;
}

// SARIF's well-known threadFlowLocation kinds for our event names (thread_flow.h).
Json step_kinds(const std::string& what) {
  Json kinds = Json::array();
  auto has = [&](const char* word) { return what.find(word) != std::string::npos; };
  if (has("read") || has("write") || has("atomic")) kinds.push_back("memory");
  if (has("acquire")) kinds.push_back("acquire");
  if (has("release")) kinds.push_back("release");
  if (has("thread-")) kinds.push_back("call");
  return kinds;
}

Json code_flow(const ThreadFlow& flow, const RunResult& run) {
  std::map<std::uint32_t, Json> threads;  // thread id -> its locations, in id order
  for (std::size_t i = 0; i < flow.steps.size(); ++i) {
    const FlowStep& s = flow.steps[i];
    Json location;
    if (!s.file.empty()) location["physicalLocation"] = physical(s.file, s.line);
    if (!s.function.empty())
      location["logicalLocations"] = Json::array({Json{{"name", s.function}, {"kind", "function"}}});
    std::string text = (s.switched_to ? "switch to T" : "T") + std::to_string(s.thread) + ": " + s.what;
    if (s.file.empty() && !s.module.empty()) text += " at " + s.module;
    location["message"] = Json{{"text", text}};
    Json step;
    step["location"] = std::move(location);
    step["executionOrder"] = i + 1;
    if (Json kinds = step_kinds(s.what); !kinds.empty()) step["kinds"] = std::move(kinds);
    if (i + 1 == flow.steps.size()) step["importance"] = "essential";  // the last step before the failure
    threads[s.thread].push_back(std::move(step));
  }
  Json thread_flows = Json::array();
  for (auto& [thread, locations] : threads) {
    thread_flows.push_back(Json{{"id", "T" + std::to_string(thread)},
                                {"message", Json{{"text", "thread T" + std::to_string(thread)}}},
                                {"locations", std::move(locations)}});
  }
  std::string text = "The interleaving of seed " + std::to_string(run.seed) + " (" + flow.handle + "), " +
                     std::to_string(flow.steps.size()) + " steps";
  if (flow.truncated) text += ", cut short";
  return Json{{"message", Json{{"text", text}}}, {"threadFlows", std::move(thread_flows)}};
}

// "file:line function" (localization's site text) as a location; nullopt when it has no line.
std::optional<Json> site_location(const std::string& site) {
  const std::size_t space = site.find(' ');
  const std::string place = site.substr(0, space);
  const std::size_t colon = place.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::uint32_t line = 0;
  for (std::size_t i = colon + 1; i < place.size(); ++i) {
    if (place[i] < '0' || place[i] > '9') return std::nullopt;
    line = line * 10 + static_cast<std::uint32_t>(place[i] - '0');
  }
  if (line == 0) return std::nullopt;
  Json location;
  location["physicalLocation"] = physical(place.substr(0, colon), line);
  if (space != std::string::npos)
    location["logicalLocations"] = Json::array({Json{{"name", site.substr(space + 1)}, {"kind", "function"}}});
  return location;
}

// The accesses of every Falcon pattern whose forcing confirmed it.
Json confirmed_pattern_locations(const Json& localization) {
  Json related = Json::array();
  if (!localization.is_object() || !localization.contains("falcon")) return related;
  const Json& patterns = localization["falcon"].value("patterns", Json::array());
  for (const Json& pattern : patterns) {
    if (!pattern.contains("confirmation") || pattern["confirmation"].value("verdict", "") != "confirmed") continue;
    const Json& accesses = pattern.value("accesses", Json::array());
    for (std::size_t i = 0; i < accesses.size(); ++i) {
      const Json& a = accesses[i];
      std::optional<Json> location = site_location(a.value("site", ""));
      if (!location) continue;
      std::string text = "confirmed pattern " + pattern.value("kind", "") + " (rank " +
                         std::to_string(pattern.value("rank", 0)) + ") on " + pattern.value("location", "") +
                         ": access " + std::to_string(i + 1) + " of " + std::to_string(accesses.size()) + ", " +
                         a.value("access", "") + " by T" + std::to_string(a.value("thread", 0));
      (*location)["id"] = related.size() + 1;
      (*location)["message"] = Json{{"text", text}};
      related.push_back(std::move(*location));
    }
  }
  return related;
}

}  // namespace

std::string artifact_uri(const std::string& path) {
  std::string uri = !path.empty() && path[0] == '/' ? "file://" : "";
  for (const unsigned char c : path) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      uri += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      uri += hex;
    }
  }
  return uri;
}

nlohmann::ordered_json sarif_json(const Report& report, std::span<const std::optional<ThreadFlow>> flows,
                                  const nlohmann::ordered_json& localization) {
  const ReportHeader& h = report.header;
  Json rules = Json::array();
  for (const RuleText& rule : kRules) {
    rules.push_back(Json{{"id", rule_id(rule.kind)},
                         {"name", rule.name},
                         {"shortDescription", Json{{"text", rule.description}}},
                         {"defaultConfiguration", Json{{"level", "error"}}}});
  }

  const Json related = confirmed_pattern_locations(localization);
  Json results = Json::array();
  for (std::size_t g = 0; g < report.groups.size(); ++g) {
    const FailureGroup& group = report.groups[g];
    const RunResult& first = report.runs[group.first];
    const FailureDetails empty;
    const FailureDetails& f = first.failure ? *first.failure : empty;
    Json result;
    result["ruleId"] = rule_id(group.kind);
    result["ruleIndex"] = rule_index(group.kind);
    result["level"] = "error";
    std::string text = f.message.empty() ? std::string(to_string(group.kind)) : f.message;
    text += " (" + std::to_string(group.count) + (group.count == 1 ? " seed" : " seeds") + ", first seed " +
            std::to_string(first.seed) + "). Replay: " + group.replay;
    result["message"] = Json{{"text", text}};
    result["locations"] = Json::array({failure_location(f, h.test.target)});
    result["partialFingerprints"] = Json{{"ctrlschedSignature/v1", group.signature}};
    if (g < flows.size() && flows[g] && !flows[g]->steps.empty())
      result["codeFlows"] = Json::array({code_flow(*flows[g], first)});
    if (g == 0 && !related.empty()) result["relatedLocations"] = related;
    result["properties"] = Json{{"seeds", group.count},
                                {"firstSeed", first.seed},
                                {"handle", first.handle},
                                {"replay", group.replay},
                                {"details", f.details},
                                {"stack", f.stack}};
    results.push_back(std::move(result));
  }

  Json run;
  run["tool"] = Json{{"driver", Json{{"name", "ctrlsched"},
                                    {"semanticVersion", CTRLSCHED_VERSION},
                                    {"rules", std::move(rules)}}}};
  std::vector<std::string> arguments{h.test.target};
  arguments.insert(arguments.end(), h.test.args.begin(), h.test.args.end());
  run["invocations"] = Json::array({Json{{"executionSuccessful", true},
                                         {"properties", Json{{"test", arguments},
                                                             {"seeds", report.runs.size()},
                                                             {"seedStart", h.seed_start},
                                                             {"strategy", strategy_text(h.spec)},
                                                             {"failures", report.failures()}}}}});
  run["results"] = std::move(results);
  run["columnKind"] = "utf16CodeUnits";

  Json root;
  root["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  root["version"] = "2.1.0";
  root["runs"] = Json::array({std::move(run)});
  return root;
}

std::string render_sarif(const Report& report, std::span<const std::optional<ThreadFlow>> flows,
                         const nlohmann::ordered_json& localization) {
  return sarif_json(report, flows, localization).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace ctrlsched::driver

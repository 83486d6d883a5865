// The HTML report's data and page (see html_report.h and docs/reports.md).
#include "report/html_report.h"

#include <map>

#include "report/html_page.h"
#include "report/json_report.h"
#include "report/shell_quote.h"

namespace ctrlsched::driver {
namespace {

using Json = nlohmann::ordered_json;

// Step flags, as the page's script reads them.
constexpr int kSwitchedTo = 1, kPreempted = 2, kBlocks = 4;

// The pattern the page highlights: the best-ranked confirmed Falcon pattern, else the top-ranked
// one that is not a symptom. `status` says which.
struct ChosenPattern {
  std::size_t index = 0;  // in localization.falcon.patterns
  std::string status;     // "confirmed" | "top"
  std::vector<PatternAccess> accesses;
};

std::optional<ChosenPattern> choose_pattern(const Json& localization) {
  if (!localization.is_object() || !localization.contains("falcon")) return std::nullopt;
  const Json patterns = localization["falcon"].value("patterns", Json::array());
  std::optional<std::size_t> chosen;
  std::string status;
  for (std::size_t i = 0; i < patterns.size() && !chosen; ++i) {
    if (patterns[i].contains("confirmation") && patterns[i]["confirmation"].value("verdict", "") == "confirmed") {
      chosen = i;
      status = "confirmed";
    }
  }
  for (std::size_t i = 0; i < patterns.size() && !chosen; ++i) {
    if (!patterns[i].value("symptom", false)) {
      chosen = i;
      status = "top";
    }
  }
  if (!chosen) return std::nullopt;
  ChosenPattern c{*chosen, status, {}};
  for (const Json& a : patterns[*chosen].value("accesses", Json::array())) {
    c.accesses.push_back(PatternAccess{a.value("site", ""), a.value("role", 0u), a.value("access", "")});
  }
  return c;
}

Json timeline_json(const GroupTimeline& traced, const FailureGroup& group, const RunResult& first,
                   const std::optional<ChosenPattern>& pattern) {
  const Timeline& t = traced.timeline;
  Json places = Json::array();
  for (const TimelinePlace& p : t.places) places.push_back(Json::array({p.file, p.line, p.function, p.module}));
  // Step texts repeat ("read", "acquire mutex"): each is sent once.
  std::map<std::string, std::size_t> what_index;
  Json whats = Json::array();
  Json steps = Json::array();
  std::optional<std::size_t> last_of_failing;
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const TimelineStep& s = t.steps[i];
    auto [it, inserted] = what_index.try_emplace(s.what, whats.size());
    if (inserted) whats.push_back(s.what);
    const int flags = (s.switched_to ? kSwitchedTo : 0) | (s.preempted ? kPreempted : 0) | (s.blocks ? kBlocks : 0);
    steps.push_back(s.thread);
    steps.push_back(s.place);
    steps.push_back(it->second);
    steps.push_back(flags);
    if (traced.failing_thread && s.thread == *traced.failing_thread) last_of_failing = i;
  }
  Json json;
  json["handle"] = t.handle;
  json["threads"] = std::max<std::uint32_t>(t.threads, first.threads);
  json["truncated"] = t.truncated;
  json["places"] = std::move(places);
  json["whats"] = std::move(whats);
  json["steps"] = std::move(steps);
  // A deadlock has no failure point: its blocked threads are the highlight.
  if (group.kind != OutcomeKind::Deadlock && last_of_failing && !t.truncated) {
    json["failure"] = Json{{"step", *last_of_failing}, {"thread", *traced.failing_thread}};
  } else {
    json["failure"] = nullptr;
  }
  Json blocked = Json::array();
  if (group.kind == OutcomeKind::Deadlock) {
    for (const BlockedAtEnd& b : t.blocked_at_end) {
      blocked.push_back(Json{{"thread", b.thread},
                             {"step", b.step},
                             {"waits_for", b.waits_for},
                             {"holder", b.holder ? Json(*b.holder) : Json(nullptr)},
                             {"held_since", b.held_since ? Json(*b.held_since) : Json(nullptr)}});
    }
  }
  json["deadlock"] = std::move(blocked);
  if (pattern) {
    Json p;
    p["index"] = pattern->index;
    p["status"] = pattern->status;
    std::vector<std::size_t> found = find_pattern_steps(t, pattern->accesses);
    p["complete"] = !found.empty();
    if (found.empty()) found = steps_at_pattern_sites(t, pattern->accesses);
    p["steps"] = found;
    json["pattern"] = std::move(p);
  } else {
    json["pattern"] = nullptr;
  }
  return json;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

std::string shrink_command(const std::string& handle, const TestCommand& test) {
  std::vector<std::string> words = {"ctrlsched", "shrink", handle};
  words.insert(words.end(), test.replay_options.begin(), test.replay_options.end());
  words.push_back(test.target);
  words.insert(words.end(), test.args.begin(), test.args.end());
  return shell_join(words);
}

nlohmann::ordered_json html_data(const Report& report, std::span<const std::optional<GroupTimeline>> timelines,
                                 const nlohmann::ordered_json& localization) {
  const Json full = report_json(report);
  Json data;
  data["schema"] = "ctrlsched-html/1";
  data["summary"] = full["summary"];
  data["outcomes"] = full["outcomes"];
  const std::optional<ChosenPattern> pattern = choose_pattern(localization);
  Json groups = Json::array();
  for (std::size_t g = 0; g < report.groups.size(); ++g) {
    const FailureGroup& group = report.groups[g];
    const RunResult& first = report.runs[group.first];
    Json json = full["groups"][g];
    json["handle"] = first.handle;
    json["shrink"] = shrink_command(first.handle, report.header.test);
    json["threads"] = first.threads;
    json["details"] = first.failure ? Json(first.failure->details) : Json::array();
    json["stack"] = first.failure ? Json(first.failure->stack) : Json::array();
    if (g < timelines.size() && timelines[g]) {
      json["timeline"] = timeline_json(*timelines[g], group, first, pattern);
      json["timeline_note"] = nullptr;
    } else {
      json["timeline"] = nullptr;
      json["timeline_note"] =
          g < timelines.size()  ? "the traced rerun of this seed did not follow the same schedule (the test is not "
                                  "deterministic), so no interleaving is shown"
          : timelines.empty()   ? "no interleaving was traced (an interrupted run starts no traced reruns); "
                                  "`ctrlsched trace` with the handle above records it"
                                : "only the first groups are traced; `ctrlsched trace` with the handle above records "
                                  "this one";
    }
    groups.push_back(std::move(json));
  }
  data["groups"] = std::move(groups);
  data["localization"] = localization.is_object() ? localization : Json(nullptr);
  return data;
}

std::string script_json(const nlohmann::ordered_json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  // JSON has these characters only inside strings, where the escapes mean the same.
  replace_all(text, "&", "\\u0026");
  replace_all(text, "<", "\\u003c");
  replace_all(text, ">", "\\u003e");
  replace_all(text, "\u2028", "\\u2028");
  replace_all(text, "\u2029", "\\u2029");
  return text;
}

std::string render_html(const Report& report, std::span<const std::optional<GroupTimeline>> timelines,
                        const nlohmann::ordered_json& localization) {
  std::string page(html_page_before_data());
  page += script_json(html_data(report, timelines, localization));
  page += html_page_after_data();
  return page;
}

}  // namespace ctrlsched::driver

// The static HTML report of a seeds run (`--html FILE`, docs/reports.md): one self-contained page
// (inline CSS and JavaScript, no network) with the summary, the failure groups with their replay
// and shrink commands, for the first failing seed of each group an interleaving timeline (one lane
// per thread; switches, preemptions and blocked periods marked; the failure point or the deadlock
// highlighted), and with --localize the ranked patterns with their verdicts and evidence, the
// chosen one's accesses highlighted on the timeline.
//
// Safety: nothing from the test reaches the page as markup. The data travels as JSON inside
// <script type="application/json"> with '<', '>', '&', U+2028 and U+2029 written as \u escapes
// (script_json), so no text can close the script element; the page's script renders it with
// textContent only (html_page.h).
// Pure: the traced timelines and the localization object come in as values.
#pragma once

#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report/timeline.h"

namespace ctrlsched::driver {

// A group's traced first failing run: its timeline and the thread that failed (when one did).
struct GroupTimeline {
  Timeline timeline;
  std::optional<std::uint32_t> failing_thread;
};

// The page's data: `timelines[i]` is group i's (missing entries and nullopt: no timeline, with a
// note saying why); `localization` is the JSON report's "localization" object, or null.
nlohmann::ordered_json html_data(const Report& report, std::span<const std::optional<GroupTimeline>> timelines,
                                 const nlohmann::ordered_json& localization);

// The whole page.
std::string render_html(const Report& report, std::span<const std::optional<GroupTimeline>> timelines,
                        const nlohmann::ordered_json& localization);

// JSON text safe inside a <script> element: '<', '>', '&', U+2028 and U+2029 as \u escapes,
// invalid UTF-8 replaced by U+FFFD.
std::string script_json(const nlohmann::ordered_json& value);

// "ctrlsched shrink <handle> <replay options> <target> <args...>", shell-quoted.
std::string shrink_command(const std::string& handle, const TestCommand& test);

}  // namespace ctrlsched::driver

// JUnit XML rendering of a seeds run (`--junit FILE`, docs/reports.md), in the common dialect
// Jenkins, GitLab and CTest/CDash read: one <testsuite> for the run, one <testcase> per failure
// group (a <failure> with the message, seeds, replay command, stack and details; the output tail
// as <system-out>) and one <testcase name="passing seeds">, <skipped/> when no seed passed.
// Test case names are stable across runs (kind and failure site, no seed numbers), so dashboards
// can follow a failure's history.
// Pure: a function of the Report value.
#pragma once

#include <string>
#include <string_view>

#include "report/report.h"

namespace ctrlsched::driver {

std::string render_junit(const Report& report);

// `text` escaped for XML character data and attribute values: markup characters as entities,
// characters XML 1.0 forbids (most C0 controls) and invalid UTF-8 as U+FFFD.
std::string xml_escape(std::string_view text);

}  // namespace ctrlsched::driver

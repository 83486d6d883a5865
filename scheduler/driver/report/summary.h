// The human summary of a seeds run on stdout: header line, one block per failure group (message,
// replay command, details, stack, the end of the test's output), then the pass and per-kind
// counts. --quiet keeps only the failure blocks.
#pragma once

#include <string>

#include "report/report.h"

namespace ctrlsched::driver {

std::string render_summary(const Report& report, bool quiet);

// The lines under a failure's headline (also used by replay), each indented by six spaces: the
// replay command when given, details (deadlock waits), the first stack frames, a note, and the
// end of the test's output prefixed by "| ".
std::string render_failure_body(const RunResult& run, const std::string* replay_command);

std::string seconds_text(double seconds);  // "1.21 s", "0.05 s", "12.3 s"

}  // namespace ctrlsched::driver

// The interleaving of one traced run as a list of steps in execution order, each with its thread,
// what it did and where: the data behind a SARIF codeFlow (sarif_report.h). Unlike the readable
// interleaving (interleaving.h), nothing is merged into line ranges: consecutive events of one
// thread at the same source line become one step, and context switches are kept as flags on the
// step that follows them.
// Pure: symbolization comes in through localize::Symbolizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"

namespace ctrlsched::driver {

struct FlowStep {
  std::uint32_t thread = 0;
  std::string what;      // the event kinds at this line, e.g. "read, write" or "acquire"
  std::string file;      // as the symbolizer gives it (a full path when known), "" if unknown
  std::uint32_t line = 0;
  std::string function;  // "" if unknown
  std::string module;    // "module+0xoffset" when the site has no source line
  bool switched_to = false;  // the scheduler switched to this thread just before this step
};

struct ThreadFlow {
  std::string handle;  // the traced run
  std::vector<FlowStep> steps;
  bool truncated = false;  // more steps than the limit (or the trace itself was cut short)
};

// At most `limit` steps; the trace's Switch events become `switched_to` flags.
ThreadFlow thread_flow(const localize::Trace& trace, localize::Symbolizer& symbolizer, std::size_t limit);

}  // namespace ctrlsched::driver

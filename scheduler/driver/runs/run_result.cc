// Names of outcome kinds and the unsymbolized location (see run_result.h).
#include "runs/run_result.h"

namespace ctrlsched::driver {

std::string_view to_string(OutcomeKind kind) {
  switch (kind) {
    case OutcomeKind::Pass: return "pass";
    case OutcomeKind::Assertion: return "assertion";
    case OutcomeKind::Signal: return "signal";
    case OutcomeKind::Exit: return "exit";
    case OutcomeKind::Deadlock: return "deadlock";
    case OutcomeKind::Hang: return "hang";
    case OutcomeKind::Timeout: return "timeout";
    case OutcomeKind::Diverged: return "diverged";
    case OutcomeKind::Error: return "error";
    case OutcomeKind::Unfinished: return "unfinished";
  }
  return "unknown";
}

SourceLocation raw_location(std::string_view frame) { return SourceLocation{std::string(frame), "", "", 0}; }

}  // namespace ctrlsched::driver

// Per-kind failure rendering for outcome classification (internal to the driver): what the
// message says, which location and stack are shown, and the signature runs are grouped by.
#pragma once

#include <string>

#include "runs/outcome.h"

namespace ctrlsched::driver {

// Symbolizes one frame with the context's symbolizer (raw text when it has none).
SourceLocation locate(const ClassifyContext& context, const std::string& frame);

// assertion `expr` failed (file:line in function); signature kind|file:line|function.
FailureDetails assertion_failure(const RunRecord& record, const ClassifyContext& context);
// SIGSEGV in T1 at <pc> (address ...); signature kind|signal|<pc location>.
FailureDetails signal_failure(const RunRecord& record, const ClassifyContext& context);
// deadlock: N threads blocked — who waits for what; signature kind|<sorted top frames>.
FailureDetails deadlock_failure(const RunRecord& record, const ClassifyContext& context);
// hang: exceeded --max-steps N [and made no progress in P more steps (livelock)] in T at <frame>;
// signature kind|<top frame>.
FailureDetails hang_failure(const RunRecord& record, const ClassifyContext& context);
// unfinished: still making progress at --max-steps N in T at <frame>; not a failure, signature
// "unfinished" (the probe of shim/step_limit.h saw new events past the limit).
FailureDetails unfinished_details(const RunRecord& record, const ClassifyContext& context);
FailureDetails simple_failure(OutcomeKind kind, std::string message, std::string signature);

}  // namespace ctrlsched::driver

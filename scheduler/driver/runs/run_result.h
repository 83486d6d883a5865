// What the driver keeps of one run once its process and run record are gone: the outcome kind,
// the failure (symbolized, ready to print), the schedule identity and the counters.
//
// Plain values only, so grouping, the summary and the JSON report are pure functions of a vector
// of RunResult and are unit-tested without processes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctrlsched::driver {

// Unfinished: the run reached --max-steps while still making progress (shim/step_limit.h). It
// is neither a pass nor a failure: it did not get to the end.
enum class OutcomeKind : std::uint8_t {
  Pass, Assertion, Signal, Exit, Deadlock, Hang, Timeout, Diverged, Error, Unfinished,
};
inline constexpr OutcomeKind kAllOutcomeKinds[] = {
    OutcomeKind::Pass, OutcomeKind::Assertion, OutcomeKind::Signal,   OutcomeKind::Exit,
    OutcomeKind::Deadlock, OutcomeKind::Hang,  OutcomeKind::Timeout, OutcomeKind::Diverged,
    OutcomeKind::Error, OutcomeKind::Unfinished,
};
// "pass", "assertion", "signal", "exit", "deadlock", "hang", "timeout", "diverged", "error",
// "unfinished".
std::string_view to_string(OutcomeKind kind);

// How the child process ended, as the worker pool saw it.
struct ChildExit {
  bool timed_out = false;  // the driver killed it at the deadline
  int wait_status = 0;     // as from waitpid
};

// A code location: `text` is what we print ("deposit (bank.c:18)", or the raw frame when it
// could not be symbolized); the parts are empty / 0 when unknown.
struct SourceLocation {
  std::string text;
  std::string function;
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;  // 0 when the debug information gives none
};

// Turns a frame from the run record ("module+0xoffset" or free text) into a location. The shim
// already steps return addresses back into their call instruction, so every frame is looked up
// as it is.
using SymbolizeFn = std::function<SourceLocation(std::string_view frame)>;
// The global a module-relative data address lies in ("g_cache", "g_stats+8"), "" when none: names
// the sync objects of a deadlock report.
using DataSymbolFn = std::function<std::string(const std::string& module, std::uint64_t offset)>;

// The frame as it is, unsymbolized: for tests and when symbolization is off.
SourceLocation raw_location(std::string_view frame);

struct FailureDetails {
  OutcomeKind kind = OutcomeKind::Error;
  std::string message;               // one line, e.g. "assertion `x == 1` failed (a.c:4 in main)"
  std::string file;                  // where, when known
  std::uint32_t line = 0;
  std::string function;
  std::vector<std::string> stack;    // symbolized frames, innermost first
  std::vector<std::string> details;  // further lines (deadlock: one per blocked thread)
  std::string signature;             // failures with equal signatures form one group
};

// A run's cross-thread access pairs, symbolized (--access-pairs; see access_pairs.h).
// Sides are keyed at Locon's finest level (threads, iterations); see ctrlsched/access_pairs.h.
struct AccessPairResult {
  std::string head;  // "W lost_update.c:25 (worker)"
  std::string tail;
  std::uint32_t count = 0;
  std::uint64_t head_site = 0;  // raw sites (trace_format.h encoding), the pair's identity
  std::uint64_t tail_site = 0;
  bool head_write = false;
  bool tail_write = false;
  std::uint32_t head_thread = 0;
  std::uint32_t tail_thread = 0;
  std::uint8_t head_iteration = 0;  // previous executions of the site in its function activation
  std::uint8_t tail_iteration = 0;
  std::uint32_t head_access = 0;  // index among the run's accesses at the first occurrence
  std::uint32_t tail_access = 0;
  std::uint32_t location = 0;  // the location, numbered by first appearance among the run's pairs
  std::uint8_t head_sync = 0;  // SyncOp when the side is a sync operation (ctrlsched/sync_ops.h)
  std::uint8_t tail_sync = 0;
};

struct AccessPairs {
  std::uint64_t accesses = 0;
  std::uint64_t locations = 0;
  std::uint64_t untracked = 0;
  std::uint32_t dropped = 0;
  std::vector<AccessPairResult> pairs;  // in the order the run first produced them
};

struct RunResult {
  std::uint64_t seed = 0;
  OutcomeKind kind = OutcomeKind::Pass;
  std::optional<FailureDetails> failure;  // set iff kind != Pass (Unfinished: why it stopped)
  std::string handle;                     // replay handle including "@<schedule hash>"
  std::uint64_t schedule_hash = 0;
  std::uint64_t steps = 0;
  std::uint64_t decisions = 0;
  std::uint64_t preemptions = 0;
  std::uint32_t threads = 0;
  std::string output_tail;                // failures only: the end of the test's output
  std::string note;                       // e.g. the watchdog released a blocked thread
  std::optional<AccessPairs> access_pairs;  // with --access-pairs

  bool failed() const { return kind != OutcomeKind::Pass && kind != OutcomeKind::Unfinished; }
  bool passed() const { return kind == OutcomeKind::Pass; }
};

}  // namespace ctrlsched::driver

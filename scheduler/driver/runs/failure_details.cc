// Rendering of each failure kind from the run record: message, location, stack, details and
// the grouping signature. Split from outcome.cc, which only decides *which* kind a run has.
#include "runs/failure_details.h"

#include <signal.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>

namespace ctrlsched::driver {
namespace {

// Frames shown per blocked thread: enough to see the lock call and its caller.
constexpr std::size_t kDeadlockFrames = 4;

std::string basename_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string hex_value(std::uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, value);
  return buffer;
}

}  // namespace

SourceLocation locate(const ClassifyContext& context, const std::string& frame) {
  if (context.symbolize) return context.symbolize(frame);
  return raw_location(frame);
}

namespace {

std::vector<std::string> render_stack(const Stack& stack, const ClassifyContext& context) {
  std::vector<std::string> frames;
  const std::uint32_t count = std::min<std::uint32_t>(stack.count, kMaxFrames);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string frame = record_text(stack.frames[i].text);
    if (!frame.empty()) frames.push_back(locate(context, frame).text);
  }
  return frames;
}

// Fills file/line/function from the first frame of `stack` that could be symbolized.
void locate_top(FailureDetails& failure, const Stack& stack, const ClassifyContext& context) {
  const std::uint32_t count = std::min<std::uint32_t>(stack.count, kMaxFrames);
  for (std::uint32_t i = 0; i < count; ++i) {
    const SourceLocation where = locate(context, record_text(stack.frames[i].text));
    if (where.function.empty() && where.file.empty()) continue;
    failure.function = where.function;
    failure.file = where.file;
    failure.line = where.line;
    return;
  }
}

std::string top_frame(const Stack& stack, const ClassifyContext& context) {
  if (stack.count == 0) return "?";
  return locate(context, record_text(stack.frames[0].text)).text;
}

const char* wait_kind_name(std::uint32_t kind) {
  switch (static_cast<WaitKind>(kind)) {
    case WaitKind::Mutex: return "mutex";
    case WaitKind::RwlockRead: return "rwlock (to read)";
    case WaitKind::RwlockWrite: return "rwlock (to write)";
    case WaitKind::Cond: return "condition variable";
    case WaitKind::Semaphore: return "semaphore";
    case WaitKind::Barrier: return "barrier";
    case WaitKind::Join: return "thread";
    case WaitKind::Once: return "once flag";
    case WaitKind::Spin: return "spinlock";
    case WaitKind::Futex: return "futex";
    case WaitKind::None: break;
  }
  return "object";
}

// "g_stats+8 (0x555555558188)" for an object in a global, "0x7ffff7a00010" otherwise (heap,
// stack): the name the localization's reports give the same object.
std::string object_text(const RunRecord& record, std::uint64_t address, const ClassifyContext& context) {
  if (context.data_symbol) {
    const ModuleTable& modules = record.modules;
    for (std::uint32_t i = 0; i < std::min<std::uint32_t>(modules.count, kMaxRecordedModules); ++i) {
      const TraceModule& m = modules.modules[i];
      if (address < m.bias || address - m.bias >= m.size) continue;
      const std::string name = context.data_symbol(record_text(m.path), address - m.bias);
      if (!name.empty()) return name + " (" + hex_value(address) + ")";
      break;
    }
  }
  return hex_value(address);
}

// "T2 waits for mutex g_lock (0x5555) held by T1", "T0 waits to join T1"
std::string describe_wait(const BlockedThread& blocked, const RunRecord& record, const ClassifyContext& context) {
  std::string text = "T" + std::to_string(blocked.thread);
  if (static_cast<WaitKind>(blocked.wait_kind) == WaitKind::Join && blocked.holder >= 0) {
    text += " waits to join T" + std::to_string(blocked.holder);
  } else {
    text += std::string(" waits for ") + wait_kind_name(blocked.wait_kind) + " " + object_text(record, blocked.object, context);
    if (blocked.holder >= 0) {
      text += " held by T" + std::to_string(blocked.holder);
      if (blocked.holder_exited) text += " (exited)";
    }
  }
  if (blocked.timed) text += " (timed wait)";
  return text;
}

}  // namespace

FailureDetails assertion_failure(const RunRecord& record, const ClassifyContext& context) {
  const FailureInfo& info = record.failure;
  FailureDetails f;
  f.kind = OutcomeKind::Assertion;
  f.file = record_text(info.file);
  f.line = info.line;
  f.function = record_text(info.function);
  const std::string expression = record_text(info.expression);
  std::string where = basename_of(f.file) + ":" + std::to_string(f.line);
  if (!f.function.empty()) where += " in " + f.function;
  f.message = expression.empty() ? record_text(info.message) : "assertion `" + expression + "` failed";
  if (f.message.empty()) f.message = "assertion failed";
  f.message += " (" + where + ")";
  f.stack = render_stack(info.stack, context);
  f.signature = "assertion|" + f.file + ":" + std::to_string(f.line) + "|" + f.function;
  return f;
}

namespace {

// A frame ("module+0xoffset") in the system's libraries rather than the test's own code.
bool in_system_library(const std::string& frame) {
  for (const char* prefix : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"})
    if (frame.starts_with(prefix)) return true;
  return false;
}

// Where a fatal signal belongs: the faulting pc, unless that is inside a system library (abort(),
// a crash inside memcpy): then the innermost frame of the test's own code, so failures group by
// the test's call site rather than all under libc's raise().
std::string signal_site(const RunRecord& record) {
  const std::string pc_frame = record_text(record.signal.pc_location.text);
  if (!in_system_library(pc_frame)) return pc_frame;
  const Stack& stack = record.failure.stack;
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(stack.count, kMaxFrames); ++i) {
    const std::string frame = record_text(stack.frames[i].text);
    if (!frame.empty() && !in_system_library(frame)) return frame;
  }
  return pc_frame;
}

}  // namespace

FailureDetails signal_failure(const RunRecord& record, const ClassifyContext& context) {
  const SignalInfo& info = record.signal;
  FailureDetails f;
  f.kind = OutcomeKind::Signal;
  const std::string site = signal_site(record);
  const SourceLocation where = site.empty() ? SourceLocation{hex_value(info.pc), "", "", 0} : locate(context, site);
  f.function = where.function;
  f.file = where.file;
  f.line = where.line;
  const std::string name = signal_name(info.number);
  f.message = name + " in T" + std::to_string(info.thread) + " at " + where.text;
  if (info.number == SIGSEGV || info.number == SIGBUS) f.message += " (address " + hex_value(info.fault_address) + ")";
  f.stack = render_stack(record.failure.stack, context);
  f.signature = "signal|" + name + "|" + where.text;
  return f;
}

// Threads waiting to join are victims of a deadlock, not its cause: the message, the location
// and the signature are about the others (all threads only if every one waits for a join), so
// the same lock cycle groups together whoever happens to be joining it.
FailureDetails deadlock_failure(const RunRecord& record, const ClassifyContext& context) {
  const DeadlockInfo& info = record.deadlock;
  FailureDetails f;
  f.kind = OutcomeKind::Deadlock;
  const std::uint32_t reported = std::min<std::uint32_t>(info.reported, kMaxReportedBlocked);
  std::vector<const BlockedThread*> causes;
  for (std::uint32_t i = 0; i < reported; ++i) {
    const BlockedThread& blocked = info.threads[i];
    if (static_cast<WaitKind>(blocked.wait_kind) != WaitKind::Join) causes.push_back(&blocked);
    f.details.push_back(describe_wait(blocked, record, context));
    const std::vector<std::string> frames = render_stack(blocked.stack, context);
    for (std::size_t k = 0; k < std::min(frames.size(), kDeadlockFrames); ++k) f.details.push_back("    at " + frames[k]);
    if (frames.size() > kDeadlockFrames) f.details.push_back("    …");
  }
  if (causes.empty()) {
    for (std::uint32_t i = 0; i < reported; ++i) causes.push_back(&info.threads[i]);
  }
  if (info.blocked_count > reported) {
    f.details.push_back("(" + std::to_string(info.blocked_count - reported) + " more blocked threads not shown)");
  }
  std::string waits;
  std::set<std::string> tops;
  for (std::size_t i = 0; i < causes.size(); ++i) {
    if (i < 3) waits += (i ? "; " : "") + describe_wait(*causes[i], record, context);
    tops.insert(top_frame(causes[i]->stack, context));
  }
  if (!causes.empty()) locate_top(f, causes.front()->stack, context);
  f.message = "deadlock: " + std::to_string(info.blocked_count) + " threads blocked";
  if (!waits.empty()) f.message += " — " + waits + (causes.size() > 3 ? "; …" : "");
  f.signature = "deadlock";
  for (const std::string& top : tops) f.signature += "|" + top;
  return f;
}

FailureDetails hang_failure(const RunRecord& record, const ClassifyContext& context) {
  FailureDetails f;
  f.kind = OutcomeKind::Hang;
  const std::string top = top_frame(record.failure.stack, context);
  const StepLimitInfo& probe = record.step_limit;
  f.message = "hang: exceeded --max-steps " + std::to_string(record.config.max_steps);
  if (probe.probe_steps > 0) {
    f.message += " and made no progress in " + std::to_string(probe.probe_steps) + " more steps (livelock)";
  }
  if (record.failure.stack.count > 0) f.message += " in T" + std::to_string(record.failure.thread) + " at " + top;
  if (probe.probe_steps > 0 && !probe.saw_accesses) {
    f.details.push_back("uninstrumented: only new threads count as progress; if the program is just long, "
                        "raise --max-steps, or build it instrumented (docs/instrumentation.md)");
  }
  f.stack = render_stack(record.failure.stack, context);
  locate_top(f, record.failure.stack, context);
  f.signature = "hang|" + top;
  return f;
}

FailureDetails unfinished_details(const RunRecord& record, const ClassifyContext& context) {
  FailureDetails f;
  f.kind = OutcomeKind::Unfinished;
  const std::string top = top_frame(record.failure.stack, context);
  f.message = "unfinished: still making progress at --max-steps " + std::to_string(record.config.max_steps);
  if (record.failure.stack.count > 0) f.message += " in T" + std::to_string(record.failure.thread) + " at " + top;
  f.stack = render_stack(record.failure.stack, context);
  locate_top(f, record.failure.stack, context);
  f.signature = "unfinished";
  return f;
}

FailureDetails simple_failure(OutcomeKind kind, std::string message, std::string signature) {
  FailureDetails f;
  f.kind = kind;
  f.message = std::move(message);
  f.signature = std::move(signature);
  return f;
}


}  // namespace ctrlsched::driver

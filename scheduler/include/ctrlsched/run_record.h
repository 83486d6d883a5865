// The run record: one shared-memory region per run, created by the driver before the test
// starts and written by the shim while it runs, so an abort, a crash or a SIGKILL loses nothing.
//
// Protocol:
//  1. The driver creates a memfd of kRunRecordBytes (sparse: untouched pages cost nothing),
//     fills the header and RunConfig, and (for replays) the input decision log.
//  2. It passes the descriptor number in the environment variable CTRLSCHED_RECORD_FD. The
//     forked child writes its own pid into owner_pid just before exec.
//  3. The shim maps it at start-up. It is active only if magic/version match and owner_pid ==
//     getpid(); any other process (a fork child, a program the test spawns) stays inert.
//  4. The shim writes results below; plain stores only, so the crash handler may write too.
//  5. After the child is reaped the driver reads the record. Strings are NUL-terminated and
//     truncated to fit.
//
// The layout is plain data with fixed-size fields; bump kRunRecordVersion on any change.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/trace_format.h"

namespace ctrlsched {

inline constexpr std::uint32_t kRunRecordMagic = 0x52525343;  // "CSRR"
inline constexpr std::uint32_t kRunRecordVersion = 13;  // 13: ForceDirective::hold_at_location, ForceOutcome::read_from_broken_*; 12: ForceOutcome::starved_lock_site; 11: eight force steps; 10: ForceDirective::context
// SURW's per-thread event estimates and counts: threads past this many are not carried.
inline constexpr std::size_t kRecordSurwThreads = 64;
inline constexpr const char* kRecordFdEnv = "CTRLSCHED_RECORD_FD";

// What the shim saw. The driver adds Timeout (it killed the run) and derives exit/signal
// outcomes from the wait status when the shim recorded nothing more specific.
enum class ShimOutcome : std::uint32_t {
  None = 0,        // nothing special recorded (the driver looks at the wait status)
  Assertion = 1,   // __assert_fail was called: failure.* filled
  Signal = 2,      // a fatal signal was caught: signal.* filled
  Exit = 3,        // exit()/_exit() with a non-zero status from some thread: exit_status
  Deadlock = 4,    // no thread could run: deadlock.* filled
  Hang = 5,        // max_steps exceeded: failure.message, stack of the running thread
  Diverged = 6,    // replay left the recorded schedule: divergence.* filled
  ShimError = 7,   // the shim could not model something (too many threads, ...): failure.message
  Unfinished = 8,  // max_steps exceeded while the run was still making progress (StepLimitInfo)
};

enum class WaitKind : std::uint32_t {
  None = 0, Mutex, RwlockRead, RwlockWrite, Cond, Semaphore, Barrier, Join, Once, Spin, Futex,
};

struct RunConfig {
  std::uint64_t seed;
  std::uint32_t strategy;          // StrategyKind
  std::uint32_t pct_depth;
  std::uint64_t pct_steps;
  std::uint32_t has_preemption_bound;
  std::uint32_t preemption_bound;
  std::uint32_t spurious_wakeups;
  std::uint32_t points;            // PointsMode
  std::uint64_t max_steps;
  std::uint32_t verify_input_log;  // 1: run `strategy` but check it against the input log
  std::uint32_t collectors;        // bit mask of online collectors to run (kCollect*)
  std::uint32_t falcon_window;     // kCollectFalcon: window size (0 = kDefaultFalconWindow)
  ForceDirective force;            // directed runs: what to make happen (kind None = nothing)
  // Uncontrolled spinning (SpinInfo): how long a thread may run without a scheduling point while
  // others wait before the shim preempts it. 0 = kDefaultSpinBudgetUs, kSpinBudgetNever = never.
  std::uint64_t spin_budget_us;
  // Strategy Surw: estimated interesting events of the first surw_thread_count threads.
  std::uint32_t surw_thread_count;
  std::uint32_t surw_events[kRecordSurwThreads];
  std::uint32_t surw_uniform_percent;  // Strategy Surw: RunSpec::surw_uniform_percent
};

inline constexpr std::uint64_t kDefaultSpinBudgetUs = 2000;
inline constexpr std::uint64_t kSpinBudgetNever = ~std::uint64_t{0};

// Online collectors (shim/collectors.h) the driver can ask for. Each writes a fixed-size summary
// into the record's summary area.
// Summaries live in the area [kSummaryOffset, kLogRegionOffset); each collector owns one slot.
inline constexpr std::uint32_t kCollectAccessPairs = 1u << 0;  // access_pairs.h, at kSummaryOffset
inline constexpr std::uint32_t kCollectFalcon = 1u << 1;       // falcon_patterns.h, at kFalconOffset
inline constexpr std::uint32_t kCollectSpectra = 1u << 2;      // block_spectra.h, at kSpectraOffset
// Not an event collector: the strategy is wrapped in a SwitchRecordingStrategy
// (preemption_schedule.h) that writes a SwitchLogHeader and the run's SwitchPoints at
// kSwitchLogOffset (`ctrlsched shrink`).
inline constexpr std::uint32_t kCollectSwitches = 1u << 3;

inline constexpr std::size_t kTextSmall = 128;
inline constexpr std::size_t kTextLarge = 512;
inline constexpr std::size_t kMaxFrames = 12;
inline constexpr std::size_t kMaxReportedBlocked = 16;

// A code location as "module+0xoffset" (symbolized by the driver) or free text.
struct Frame {
  char text[kTextSmall * 2];
};

struct Stack {
  std::uint32_t count;
  std::uint32_t reserved;
  Frame frames[kMaxFrames];
};

struct FailureInfo {
  char message[kTextLarge];
  char expression[kTextLarge];
  char file[kTextLarge];
  char function[kTextLarge];
  std::uint32_t line;
  std::uint32_t thread;           // ThreadId that failed
  Stack stack;                    // where (hang: the running thread; assertion: optional)
};

struct SignalInfo {
  std::int32_t number;
  std::uint32_t thread;
  std::uint64_t pc;
  std::uint64_t fault_address;
  Frame pc_location;              // "module+0xoffset" of pc
};

// A mutex (or spinlock) a thread holds, and where it took it: the lock-order-cycle explanation.
inline constexpr std::uint32_t kMaxHeldLocks = 8;
struct HeldLock {
  std::uint64_t object;           // the lock's address
  std::uint64_t site;             // trace_format.h site of the call that took it
};

struct BlockedThread {
  std::uint32_t thread;
  std::uint32_t wait_kind;        // WaitKind
  std::uint64_t object;           // address of the object waited on
  std::int32_t holder;            // ThreadId holding it, -1 if none / unknown
  std::uint32_t timed;
  std::uint32_t holder_exited;    // 1 if the holder has exited (it will never release it)
  std::uint32_t held_count;       // locks the thread holds (the first kMaxHeldLocks in held)
  std::uint64_t wait_site;        // trace_format.h site of the call that waits
  HeldLock held[kMaxHeldLocks];
  Stack stack;
};

struct DeadlockInfo {
  std::uint32_t blocked_count;    // total blocked threads (may exceed the reported ones)
  std::uint32_t reported;
  BlockedThread threads[kMaxReportedBlocked];
};

struct DivergenceInfo {
  std::uint64_t decision_index;
  std::uint64_t step;
  char what[kTextLarge];
};

struct UncontrolledInfo {
  std::uint32_t count;            // times the watchdog released a thread stuck outside the model
  std::uint32_t thread;           // first such thread
  std::int64_t syscall;           // its system call number, -1 if unknown
  Frame location;                 // its user-space pc as "module+0xoffset"
};

// Uncontrolled spinning: a thread ran without reaching a scheduling point for longer than the
// spin budget while other threads waited for the baton; the watchdog preempted it (a Yield point
// taken from a signal handler, shim/spin_preempt.h).
struct SpinInfo {
  std::uint32_t count;            // preemptions of spinning threads in this run
  std::uint32_t thread;           // the first spinning thread
  std::uint64_t budget_us;        // the budget in force
  Frame location;                 // where it was first preempted, "module+0xoffset"
};

// Things the test used that the model treats in a simplified way (bits of ModelNotes::flags);
// the driver turns each into a note on the run.
inline constexpr std::uint32_t kNoteAsyncCancel = 1u << 0;    // async cancel acted as deferred
inline constexpr std::uint32_t kNotePriorityMutex = 1u << 1;  // PI/PP mutex: priorities ignored
struct ModelNotes {
  std::uint32_t flags;
  std::uint32_t reserved;
};

// A run that reached --max-steps ran on for a probe window to tell a long run from a livelock
// (shim/step_limit.h): how many probe events the second half of the window saw, and how many of
// them the first half had not (new thread, location or value). Filled for Hang and Unfinished;
// failure.thread and failure.stack say who was running when the window ended.
struct StepLimitInfo {
  std::uint64_t probe_steps;      // length of the probe window past max_steps
  std::uint64_t events;           // events in the window's second half
  std::uint64_t novel;            // of those, not seen in the first half
  std::uint32_t saw_accesses;     // 1 if instrumented accesses fed the probe
  std::uint32_t reserved;
};

// The modules loaded in the test process (refreshed after dlopen), so sites in traces and stacks
// can be symbolized after the process is gone.
inline constexpr std::size_t kMaxRecordedModules = 64;
struct ModuleTable {
  std::uint32_t count;
  std::uint32_t reserved;
  TraceModule modules[kMaxRecordedModules];
};

struct RunRecord {
  // Header, written by the driver.
  std::uint32_t magic;
  std::uint32_t version;
  std::uint64_t total_bytes;
  std::int32_t owner_pid;         // written by the forked child just before exec
  std::uint32_t reserved0;
  RunConfig config;
  std::uint64_t input_log_bytes;  // replay/verify: encoded decisions at input_log_offset;
                                  // strategy Preemptions: SwitchPoint records (24 bytes each)
  std::uint64_t input_log_offset;
  std::uint64_t output_log_offset;
  std::uint64_t output_log_capacity;

  // Written by the shim.
  std::uint32_t shim_started;     // 1 once the shim took control
  std::uint32_t instrumented;     // 1 if the binary calls the TSan-ABI hooks
  std::uint32_t outcome;          // ShimOutcome
  std::int32_t exit_status;
  std::uint64_t steps;
  std::uint64_t decisions;
  std::uint64_t schedule_hash;
  std::uint64_t preemptions;
  std::uint32_t threads_created;  // including T0
  std::uint32_t output_log_truncated;
  std::uint64_t output_log_bytes;
  FailureInfo failure;
  SignalInfo signal;
  DeadlockInfo deadlock;
  DivergenceInfo divergence;
  UncontrolledInfo uncontrolled;
  ModuleTable modules;
  std::uint64_t trace_events;     // events written to the trace region (trace runs only)
  std::uint32_t trace_truncated;
  std::uint32_t reserved1;
  ForceOutcome force;             // directed runs: how far the directive got
  SpinInfo spin;
  ModelNotes model_notes;
  StepLimitInfo step_limit;
  // Per thread (the first kRecordSurwThreads): the steps it took (every scheduling point it
  // reached, decided or not), the events SURW weights by (surw_strategy.cc); read by the
  // calibration runs.
  std::uint32_t thread_events[kRecordSurwThreads];
};

inline constexpr std::uint64_t kRunRecordBytes = 32ull << 20;       // 32 MiB, sparse
inline constexpr std::uint64_t kSummaryOffset = 256ull << 10;       // collector summaries:
inline constexpr std::uint64_t kFalconOffset = 1ull << 20;          //   pairs 256 KiB..1 MiB,
inline constexpr std::uint64_t kSpectraOffset = 2ull << 20;         //   falcon 1..2, spectra 2..3,
inline constexpr std::uint64_t kSummaryEnd = 3ull << 20;            //   3..4 MiB switch log
inline constexpr std::uint64_t kSwitchLogOffset = kSummaryEnd;
inline constexpr std::uint64_t kLogRegionOffset = 4ull << 20;       // logs start at 4 MiB
inline constexpr std::uint64_t kLogRegionBytes = (kRunRecordBytes - kLogRegionOffset) / 2;
static_assert(sizeof(RunRecord) < kSummaryOffset);

// The switch log (kCollectSwitches): this header, then `count` SwitchPoints; `truncated` is set
// when the run took more than fit in [kSwitchLogOffset, kLogRegionOffset).
struct SwitchLogHeader {
  std::uint64_t count;
  std::uint32_t truncated;
  std::uint32_t reserved;
};
inline constexpr std::uint64_t kSwitchLogCapacity = (kLogRegionOffset - kSwitchLogOffset - sizeof(SwitchLogHeader)) / 24;

}  // namespace ctrlsched

// Start-up: map the run record, check that this process is the one the driver started, build the
// strategy, register the main thread as T0, install the crash handlers. Also the per-thread exit
// hook (a pthread key destructor) and the decision-log sink.
#include "runtime.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

#include "access_pairs.h"
#include "collectors.h"
#include "crash.h"
#include "falcon_collector.h"
#include "fork_server.h"
#include "spectra_collector.h"
#include "forcing_collector.h"
#include "tsan/access.h"
#include "virtual_time.h"
#include "ctrlsched/decision.h"
#include "ctrlsched/in_place_schedule.h"
#include "engine.h"
#include "report.h"
#include "stack.h"
#include "spin_preempt.h"
#include "dfs_run.h"
#include "switch_log.h"
#include "watchdog.h"
#include "optional_maps.h"
#include "stack_residue.h"

namespace ctrlsched::shim {

constinit Runtime g_rt;
thread_local Thread* tls_self __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local int tls_shim_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local bool tls_shim_internal __attribute__((tls_model("initial-exec"))) = false;

void RecordLogSink::attach(RunRecord* record) {
  record_ = record;
  log_ = reinterpret_cast<std::uint8_t*>(record) + record->output_log_offset;
  capacity_ = record->output_log_capacity;
  used_ = 0;
  record->output_log_bytes = 0;
  record->output_log_truncated = 0;
  record->schedule_hash = kScheduleHashSeed;  // the hash of a run with no decisions
  record->decisions = 0;
}

void RecordLogSink::append(Decision d) {
  if (used_ + kMaxEncodedDecision > capacity_) {
    record_->output_log_truncated = 1;
    return;
  }
  used_ += encode_decision(d, log_ + used_);
  record_->output_log_bytes = used_;
  // The record's hash and count always cover exactly the logged decisions, whichever request
  // logged them (a spurious-wakeup answer is not followed by publish_decision_stats) and however
  // the run ends right after: a saved schedule and its handle can never disagree.
  record_->schedule_hash = hash_decision(record_->schedule_hash, d);
  ++record_->decisions;
}

namespace {

// glibc runs key destructors in up to PTHREAD_DESTRUCTOR_ITERATIONS rounds, after the C++
// thread_local destructors. Re-arming until the last round lets the test's own destructors run
// (still under control) before the thread gives up the baton for good.
void on_thread_exit(void* value) {
  auto* me = static_cast<Thread*>(value);
  if (!g_rt.active || me != tls_self || me->state == ThreadState::Exited) return;
  ShimEntry entry(me);
  if (++me->exit_rounds < PTHREAD_DESTRUCTOR_ITERATIONS) {
    pthread_setspecific(g_rt.exit_key, me);
    return;
  }
  release_alternate_stack(me);
  exit_thread(me);
}

// The descriptor CTRLSCHED_RECORD_FD names; -1 when there is none.
int record_fd_from_environment() {
  const char* text = std::getenv(kRecordFdEnv);
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  if (*end != '\0' || fd < 0 || fd > 1 << 20) return -1;
  return static_cast<int>(fd);
}

bool header_is_ours(std::uint32_t magic, std::uint32_t version, std::int32_t owner_pid) {
  return magic == kRunRecordMagic && version == kRunRecordVersion && owner_pid == getpid();
}

// Whether the descriptor holds a run record the driver made for this process (an exec'd run),
// read without mapping it: a program the test starts inherits the variable, and perhaps the
// descriptor, and must be left as it is, without the preparation below.
bool record_is_ours() {
  const int fd = record_fd_from_environment();
  if (fd < 0) return false;
  unsigned char header[offsetof(RunRecord, owner_pid) + sizeof(std::int32_t)];
  if (pread(fd, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header)) return false;
  std::uint32_t magic, version;
  std::int32_t owner_pid;
  std::memcpy(&magic, header + offsetof(RunRecord, magic), sizeof magic);
  std::memcpy(&version, header + offsetof(RunRecord, version), sizeof version);
  std::memcpy(&owner_pid, header + offsetof(RunRecord, owner_pid), sizeof owner_pid);
  return header_is_ours(magic, version, owner_pid);
}

RunRecord* map_record() {
  const int fd = record_fd_from_environment();
  if (fd < 0) return nullptr;
  void* mem = mmap(nullptr, kRunRecordBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (mem == MAP_FAILED) return nullptr;
  auto* record = static_cast<RunRecord*>(mem);
  if (!header_is_ours(record->magic, record->version, record->owner_pid)) {
    munmap(mem, kRunRecordBytes);  // not ours: a process the test started
    return nullptr;
  }
  return record;
}

// The input log, read in place by the replay and verifying strategies (no copy on the heap).
std::span<const std::uint8_t> input_log(const RunRecord* record) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(record) + record->input_log_offset;
  return {bytes, static_cast<std::size_t>(record->input_log_bytes)};
}

RunSpec spec_from(const RunConfig& c) {
  RunSpec spec;
  spec.seed = c.seed;
  spec.strategy = static_cast<StrategyKind>(c.strategy);
  spec.pct_depth = c.pct_depth;
  spec.pct_steps = c.pct_steps;
  if (c.has_preemption_bound) spec.preemption_bound = c.preemption_bound;
  spec.spurious_wakeups = c.spurious_wakeups != 0;
  spec.points = static_cast<PointsMode>(c.points);
  spec.max_steps = c.max_steps;
  const std::uint32_t surw_threads = std::min<std::uint32_t>(c.surw_thread_count, kRecordSurwThreads);
  spec.surw_events.assign(c.surw_events, c.surw_events + surw_threads);
  spec.surw_uniform_percent = c.surw_uniform_percent;
  return spec;
}

// Builds the same objects, with the same heap allocations, in every mode: the seed's strategy
// (from the config's spec), a follower and a verifier of the input log (read in place, so their
// size does not depend on the log), and a forcing decorator; only which of them the recorder
// talks to depends on the mode. A seed run, the replay of its handle (verifying against a saved
// schedule) and the replay of its schedule file thereby leave the test's heap in the same state:
// a test whose path depends on addresses (pointer hashing, sorting by address, alignment-
// dependent loops under instrumentation) takes the same path in all three.
bool build_strategy() {
  const RunConfig& c = g_rt.config;
  const auto kind = static_cast<StrategyKind>(c.strategy);
  const std::span<const std::uint8_t> input = input_log(g_rt.record);
  Strategy* seed_strategy = kind == StrategyKind::Preemptions ? make_planned_preemption_strategy(g_rt.record)
                            : kind == StrategyKind::Dfs         ? make_dfs_run_strategy(g_rt.record, input)
                                                                : make_strategy(spec_from(c)).release();
  if (!seed_strategy) return false;
  Strategy* follower = make_replay_strategy_in_place(input).release();
  g_rt.verifier = make_verifying_strategy_in_place(*seed_strategy, input).release();
  const bool follow = kind == StrategyKind::Replay || c.verify_input_log == kInputLogFollow;
  Strategy* inner = seed_strategy;
  if (follow) inner = follower;
  else if (c.verify_input_log == kInputLogVerify) inner = g_rt.verifier;
  g_rt.base_strategy = follow ? follower : seed_strategy;
  if (c.collectors & kCollectSwitches) inner = record_switches(*inner, g_rt.record);
  const bool forcing = static_cast<ForceKind>(c.force.kind) != ForceKind::None;
  // The forcing decorator's memory is allocated in every run, so the heap is the same with and
  // without a directive, but it is built only for a directive: its per-thread tables (56 KiB)
  // would otherwise be cleared, i.e. a dozen pages touched, in every run for nothing.
  void* forcing_memory = ::operator new(sizeof(ForcingStrategy));
  if (forcing) {
    // In the failing run's context the follower replays the reference run's decisions (the input
    // log) up to the pattern, then the seed's strategy goes on. Static storage, not the heap: the
    // test's heap must be the reference run's, or its addresses would differ from the replayed
    // run's.
    alignas(ContextStrategy) static unsigned char context_storage[sizeof(ContextStrategy)];
    ContextStrategy* context = nullptr;
    if (c.force.context != 0 && !input.empty() && !follow) {
      context = new (context_storage) ContextStrategy(*follower, *inner);
      inner = context;
    }
    // The outcome is published straight into the record: a crash of the test loses nothing.
    g_rt.forcing = new (forcing_memory) ForcingStrategy(*inner, c.force, &g_rt.record->force, context);
    inner = g_rt.forcing;
  }
  g_rt.pending_events = kind == StrategyKind::Pos;
  g_rt.may_diverge = follow || c.verify_input_log == kInputLogVerify;
  g_rt.dfs_pending = kind == StrategyKind::Dfs && !follow;
  g_rt.log_sink.attach(g_rt.record);
  g_rt.recorder = new RecordingStrategy(*inner, g_rt.log_sink);
  return true;
}

// The part of the start-up that is the same in every run of this program, whatever its seed,
// strategy or collectors: done before the fork server's snapshot, so that a served run inherits
// it instead of paying for it again, and at the same point in an exec'd run, so that both reach
// the program's constructors with the same memory image (docs/fork-server.md).
// The signal handlers are process attributes that fork passes on, and so is the main thread's
// alternate signal stack; until a run is active they do what the default would (crash.cc,
// watchdog.cc, spin_preempt.cc).
void* g_main_altstack = nullptr;

void prepare_process() {
  scan_modules();                // published into each run's record by start_shim
  warm_up_unwinder();            // glibc dlopens libgcc_s for backtrace() on first use
  remember_main_thread_stack();  // pthread_getattr_np reads /proc/self/maps for the main thread
  pthread_key_create(&g_rt.exit_key, on_thread_exit);
  reserve_optional_maps();       // before every optional mapping of a run
  install_crash_handlers();
  install_release_handler();
  install_spin_handler();
  g_main_altstack = allocate_alternate_stack();
  if (g_main_altstack != nullptr) install_alternate_stack(g_main_altstack);
}

// How deep below the constructor's frame the start-up's calls reach (the fork server's loop, the
// modules' symbols, the unwinder's dlopen, the strategy's construction): the deepest pointer into
// the shim measured 5.6 KiB below main's first frame (tests/e2e/programs/stack_residue.c), and
// 64 KiB leaves room for start-ups that go deeper than the ones measured.
void clear_start_up_stack() { clear_stack_below_caller<64 * 1024>(); }

// Returns false for a process ctrlsched did not start for a run (one the test started): the
// shim did nothing there, and leaves its stack alone.
__attribute__((noinline)) bool start_run() {
  const int server_socket = fork_server_socket();
  if (server_socket < 0 && !record_is_ours()) return false;
  prepare_process();
  if (server_socket >= 0) {
    clear_start_up_stack();     // once, for every run it forks: prepare_process went deepest
    serve_forks(server_socket);  // a fork server returns only in each run's child
  }
  RunRecord* record = map_record();
  if (record == nullptr) return true;
  g_rt.record = record;
  g_rt.config = record->config;
  g_rt.pid = getpid();
  if (!g_rt.threads.init() || !g_rt.objects.init() || !build_strategy()) {
    copy_text(record->failure.message, sizeof record->failure.message,
              "ctrlsched shim: start-up failed (out of memory?)");
    record->outcome = static_cast<std::uint32_t>(ShimOutcome::ShimError);
    return true;
  }
  g_rt.access_points = static_cast<PointsMode>(g_rt.config.points) != PointsMode::Sync;
  publish_module_table(record);
  virtual_clock_configure();

  Thread* main_thread = g_rt.threads.create();
  main_thread->os_tid = gettid();
  main_thread->handle = pthread_self();
  main_thread->baton.store(1, std::memory_order_relaxed);
  main_thread->altstack = g_main_altstack;  // installed by prepare_process
  set_main_thread_local_ranges(main_thread);
  start_trace_writer(record);
  if (g_rt.config.collectors & kCollectAccessPairs) start_access_pair_collector(record);
  if (g_rt.config.collectors & kCollectFalcon) start_falcon_collector(record);
  if (g_rt.config.collectors & kCollectSpectra) start_spectra_collector(record);
  if (g_rt.forcing != nullptr) start_forcing_collector(g_rt.forcing);
  tls_self = main_thread;
  pthread_setspecific(g_rt.exit_key, main_thread);
  g_rt.recorder->on_thread_created(main_thread->id, kNoThread);
  g_rt.runnable = 1;
  g_rt.current = main_thread;
  record->threads_created = 1;
  record->shim_started = 1;
  g_rt.active = true;
  return true;
}

__attribute__((constructor(101))) void start_shim() {
  if (start_run()) clear_start_up_stack();
}

// Returning from main() calls exit() inside libc, past our interposer; library destructors
// still run, so the final step count and the collectors' last patterns are published here.
__attribute__((destructor)) void stop_shim() {
  if (!g_rt.active || g_rt.record == nullptr) return;
  finish_collectors();
  g_rt.record->steps = g_rt.steps;
}

}  // namespace

}  // namespace ctrlsched::shim

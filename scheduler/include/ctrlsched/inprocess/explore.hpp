// ctrlsched::explore: run a test body once per seed, its threads as fibers on the calling OS
// thread, scheduled by the same strategies as the LD_PRELOAD shim (see docs/unit-testing.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/run_spec.h"

namespace ctrlsched {

struct ExploreOptions {
  std::uint64_t seeds = 1000;                   // how many seeds to run
  std::uint64_t seed_start = 0;                 // the first seed
  StrategyKind strategy = StrategyKind::Pct;    // Random or Pct (the driver's default is pct)
  std::uint32_t depth = kDefaultPctDepth;       // pct: bug depth d
  std::uint64_t pct_steps = 0;                  // pct: k; 0 = calibrate (3 random runs, >= 16)
  std::optional<std::uint32_t> preemption_bound{};  // random only
  std::uint64_t max_steps = kDefaultMaxSteps;   // a run with more steps is a hang
  std::uint64_t stop_after = 1;                 // stop after this many failing seeds (0 = never)
  bool spurious_wakeups = false;                // condition_variable waits may return unsignalled
  PointsMode points = PointsMode::Auto;         // Sync: instrumented accesses are not points
  bool fork_each_iteration = false;             // run every seed in a forked child
  bool honour_replay_env = true;                // CTRLSCHED_REPLAY=<handle> runs only that run
  std::size_t stack_size = 256 * 1024;          // per fiber
  // Asked after every thread's end and after the body: a failure a test framework recorded
  // without throwing (adapters set it; see ctrlsched/catch2.hpp, ctrlsched/gtest.hpp).
  std::function<std::optional<std::string>()> failure_probe{};
};

enum class FailureKind : std::uint8_t {
  None,
  Check,         // ctrlsched::check, or a test-framework assertion reported through an adapter
  Assertion,     // assert() (__assert_fail)
  Exception,     // an exception escaped a thread (or the body)
  Deadlock,      // every thread waits
  Hang,          // more than max_steps scheduling points
  Crash,         // fork mode: the child died of a signal or exited unexpectedly
  Misuse,        // API misuse: unlocking a mutex one does not hold, a joinable thread destroyed
  Divergence,    // a replayed handle produced a different schedule hash
};

std::string_view to_string(FailureKind kind);

struct FailedRun {
  std::uint64_t seed = 0;
  std::string handle;              // pass as CTRLSCHED_REPLAY=<handle> to rerun just this run
  FailureKind kind = FailureKind::None;
  std::string message;             // one or more lines, no trailing newline
  std::vector<Decision> decisions; // the run's decision log
  std::string schedule_text;       // schedule.h text format of `decisions`
  std::uint64_t steps = 0;
};

struct ExploreResult {
  std::uint64_t runs = 0;           // seeds run (including failing ones)
  std::uint64_t failures = 0;       // failing seeds
  std::uint64_t pct_steps = 0;      // the k used (pct)
  bool replayed = false;            // CTRLSCHED_REPLAY selected a single run
  std::optional<FailedRun> first_failure;
  bool passed() const { return failures == 0; }
  // Multi-line human report: seed, failure, handle and the replay instruction. `rerun` is the
  // command that runs this test alone (adapters pass it); the handle is prefixed to it.
  std::string report(std::string_view rerun = "<this test binary> <its test filter>") const;
};

// Runs `body` once per seed. Not reentrant; call from a test (any OS thread), not from a fiber.
ExploreResult explore(const ExploreOptions& options, std::function<void()> body);

// Fails the current run (inside explore: ends it at once, reported with its seed) or, outside
// explore, throws ctrlsched::check_failed.
void check(bool condition, std::string_view message = "check failed");
// Records a failure without leaving the current thread (adapters use it for non-fatal framework
// assertions); the run stops at its next scheduling point. Outside explore: does nothing.
void note_failure(FailureKind kind, std::string message);
// True while the calling code runs inside an explore fiber.
bool in_explore() noexcept;

struct check_failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ctrlsched

#define CHECK_OR_THROW(cond) ::ctrlsched::check(static_cast<bool>(cond), "CHECK_OR_THROW(" #cond ")")

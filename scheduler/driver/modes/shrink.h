// Shrink mode: `ctrlsched shrink <handle> | --seed S | --schedule FILE ./test args` finds, for a
// failing run, a run that fails the same way (same outcome kind and failure signature: the site)
// with as few preemptions as it can, prints it as a readable interleaving and saves it as a
// schedule file that `ctrlsched replay --schedule FILE ./test` replays. docs/shrinking.md has the
// method; in short:
//  1. replay the run once with a switch log (preemption_schedule.h): its preemptions, named
//     (thread, point index of that thread) -> target, and its free choices;
//  2. re-check that the preemption strategy fed all of them fails the same way;
//  3. ddmin (ddmin.h) over the preemptions, each test one run, batches run in parallel (-j);
//  4. run the result again with a trace and a switch log: the interleaving, the decision log;
//  5. replay that decision log as a schedule file would be: it must fail the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctrlsched/preemption_schedule.h"
#include "ctrlsched/schedule.h"
#include "exit_codes.h"
#include "options/command_line.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

enum class ShrinkStatus {
  Shrunk,         // `schedule` fails the same way with `preemptions_after` preemptions
  Passed,         // the named run passed: nothing to shrink
  Diverged,       // the named run did not follow its recorded schedule / hash
  NotReproduced,  // the run rebuilt from its switch points (or the shrunk one, re-run or
                  // replayed from its schedule) did not fail the same way: the test is not
                  // deterministic under ctrlsched, or it has choices the switch points miss
};

struct ShrinkResult {
  ShrinkStatus status = ShrinkStatus::Passed;
  std::string problem;                   // one line when status is not Shrunk or Passed
  std::string handle;                    // the run that was shrunk (its handle, or the schedule file's)
  OutcomeKind kind = OutcomeKind::Pass;  // its failure ...
  std::string signature;                 // ... and the signature the shrunk run keeps
  std::string message;                   // the failure message of the shrunk run
  std::uint64_t preemptions_before = 0;  // of the named run (RunRecord::preemptions)
  std::uint64_t preemptions_after = 0;   // of the shrunk run
  std::uint64_t test_runs = 0;           // ddmin tests (distinct configurations, one run each)
  std::uint64_t total_runs = 0;          // every run, including extraction, re-checks and replay
  std::vector<SwitchPoint> preemptions;  // the shrunk run's Preempt entries
  std::vector<std::string> interleaving; // render_interleaving of the shrunk run
  Schedule schedule;                     // its decision log, handle = the original's
  std::optional<std::uint64_t> seed;     // of the named run, when it has one
  std::uint64_t original_hash = 0;       // its schedule hash, when named with one
};

// Shrinks the run the command line names (mode Shrink; -j, --timeout, the replay options).
// Prints nothing. Throws DriverError like replay (bad handle or file: 5, target: 3, ...).
ShrinkResult shrink(const CommandLine& command_line);

// For evaluations and scripts: shrinks `handle` (as printed by seeds mode) of `target args`,
// with `jobs` runs in parallel. Same as `ctrlsched shrink -j<jobs> <handle> <target> <args>`.
ShrinkResult shrink_handle(const std::string& handle, const std::string& target,
                           const std::vector<std::string>& args = {}, unsigned jobs = 1);

// The report printed by `ctrlsched shrink` (pure).
std::string render_shrink_report(const ShrinkResult& result, const std::string& schedule_path);

// "shrunk-<seed>.sched", or "shrunk-<hash>.sched" when the run names no seed.
std::string default_shrunk_path(const ShrinkResult& result);

}  // namespace ctrlsched::driver

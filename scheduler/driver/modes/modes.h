// modes/ — what each `ctrlsched` command does, from the parsed command line to an exit code.
//
// Owns: seeds mode (seeds.cc: calibration, the seeds loop, saved schedules, the reports, and the
// localization pipeline with --localize), replay (replay.h), trace (trace.h) and shrink (shrink.h,
// with ddmin.h and shift_search.h). Each mode reads the options it needs from the CommandLine.
// May call: options/ (the parsed command line), localize/, report/, runs/ and the policy core.
// Never cli/: the entry point calls the modes, not the other way round.
#pragma once

#include "exit_codes.h"
#include "options/command_line.h"
#include "options/merge_command_line.h"
#include "options/store_command_line.h"

namespace ctrlsched::driver {

// `ctrlsched [options] ./test args`: runs seeds S..S+N-1 in parallel, reports in seed order,
// saves the schedules of the first failing seeds; 0 when every seed passed, 1 when one failed.
ExitCode run_seeds(const CommandLine& command_line);

// `ctrlsched --strategy dfs [--preemption-bound K] ./test args` (dfs.cc): every schedule with at
// most K preemptions, each one run, in exploration order; stops at the first failure (or after
// --stop-after N); 0 when no schedule failed, 1 when one did, whether or not it was exhaustive.
ExitCode run_dfs(const CommandLine& command_line);

// `ctrlsched replay`: one schedule, the test's output on the terminal; 0 passed, 1 failure
// reproduced, 4 diverged.
ExitCode run_replay(const CommandLine& command_line);

// `ctrlsched trace`: a replay that also records every event (trace file and readable dump);
// returns what replay would, and 0 for --dump. Throws DriverError: BadSchedule for an unreadable
// or corrupt --dump file, Usage for an output that cannot be written, and whatever replay throws.
ExitCode run_trace(const CommandLine& command_line);

// `ctrlsched shrink`: shrinks, prints the report, writes the schedule (--save-schedule FILE,
// default default_shrunk_path). 1 when shrunk (the failure reproduces), 0 when the run passed,
// 4 when it diverged or did not reproduce.
ExitCode run_shrink(const CommandLine& command_line);

// `ctrlsched merge`: the shard reports of a --shard run put together (report/merge.h).
ExitCode run_merge(const MergeCommandLine& command_line);

// `ctrlsched report --store FILE`: the reports of the stored runs, nothing run (docs/store.md).
ExitCode run_store_report(const StoreReportCommandLine& command_line);
// `ctrlsched localize --store FILE ... TEST`: the --localize pipeline over the stored runs of the
// test's current build; only ConSeq's traced run and the confirmation's forced runs run.
ExitCode run_store_localize(const CommandLine& command_line);

}  // namespace ctrlsched::driver

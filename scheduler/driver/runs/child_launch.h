// Starting one test process under the shim: environment, process attributes, fork and exec.
//
// The child gets: the shim preloaded, the run record's descriptor, a deterministic heap
// (GLIBC_TUNABLES), no address-space randomization, one CPU, its own process group (so a timeout
// kills everything it spawned) and stdin from /dev/null. Everything that allocates happens before
// fork(); between fork and exec the child only makes system calls.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace ctrlsched::driver {

class RunRecordRegion;
}  // namespace ctrlsched::driver
namespace ctrlsched {
struct RunRecord;
}
namespace ctrlsched::driver {

// Finds libctrlsched_shim.so: $CTRLSCHED_SHIM, else <exe dir>/../lib/ (build tree), else
// <exe dir>/../lib/ctrlsched/ (installed). Throws DriverError(Internal) when it is missing.
std::string locate_shim();

// The child's environment: `parent` (NULL-terminated, like environ) with LD_PRELOAD prepended by
// the shim, CTRLSCHED_RECORD_FD set, CTRLSCHED_TRACE_FD set to trace_fd when >= 0 (ctrlsched
// trace) and to "none" otherwise (as long as the fixed descriptor number launch_child passes, see
// child_launch.cc: the initial stack is the same either way), and our malloc tunables appended to
// GLIBC_TUNABLES.
std::vector<std::string> child_environment(const char* const* parent, const std::string& shim_path,
                                           int record_fd, int trace_fd = -1);

// What to execute, prepared once for all runs.
struct LaunchTarget {
  std::string path;               // resolved path passed to execve
  std::vector<std::string> argv;  // argv[0] is the target as the user wrote it
  std::string shim_path;
  // --private-cwd: each run starts in a fresh empty directory (private_directory.h).
  bool private_cwd = false;
  friend bool operator==(const LaunchTarget&, const LaunchTarget&) = default;
};

// Checks the target (target_check.h), finds the shim and builds what every run executes.
// Throws DriverError.
LaunchTarget prepare_launch(const std::string& target, const std::vector<std::string>& args,
                            bool private_cwd = false);

struct LaunchOptions {
  int output_fd = -1;  // receives stdout+stderr; -1: inherit ours (replay)
  int cpu = -1;        // pin to this CPU; -1: leave the affinity alone
  int trace_fd = -1;   // the trace region's memfd (ctrlsched trace); inherited by the child only
  const char* cwd = nullptr;  // the child's working directory; nullptr: ours
};

// Forks and execs the target with `region` as its run record. Returns the child's pid (which is
// also its process group id). Throws DriverError(Internal) if fork fails. If exec fails the child
// exits with status 127 without writing anything.
pid_t launch_child(const LaunchTarget& target, RunRecordRegion& region, const LaunchOptions& options);

// The same with any descriptor as CTRLSCHED_RECORD_FD (the fork server's socket, fork_server.h);
// `record`, when given, gets the child's pid as its owner.
pid_t launch_process(const LaunchTarget& target, int record_fd, RunRecord* record, const LaunchOptions& options);

// CPUs this process may run on (for pinning worker i to cpus[i % size]).
std::vector<int> allowed_cpus();

}  // namespace ctrlsched::driver

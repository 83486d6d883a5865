// fork/exec of one test run with the shim preloaded (see child_launch.h).
#include "runs/child_launch.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>

#include "ctrlsched/run_record.h"
#include "exit_codes.h"
#include "runs/run_record_region.h"
#include "runs/target_check.h"

extern char** environ;

namespace ctrlsched::driver {
namespace {

// Why these tunables: with several malloc arenas, which arena a thread allocates from depends on
// contention at the moment of its first allocation (a wall-clock race), and the per-thread tcache
// hands a thread back the chunks *it* freed. Either way heap addresses would depend on more than
// the schedule. One arena and no tcache make every address a function of the global sequence of
// malloc/free calls, which the shim serializes: same schedule, same addresses. That keeps
// address-dependent program behaviour (hash tables keyed by pointers, printed addresses, the
// deadlock report's object addresses) identical between a run and its replay.
constexpr const char* kMallocTunables = "glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0";

bool starts_with_var(const char* entry, std::string_view name) {
  return std::strncmp(entry, name.data(), name.size()) == 0 && entry[name.size()] == '=';
}

std::string exe_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

}  // namespace

std::string locate_shim() {
  if (const char* env = std::getenv("CTRLSCHED_SHIM"); env && *env) {
    if (::access(env, R_OK) != 0) {
      throw DriverError(ExitCode::Internal,
                        std::string("CTRLSCHED_SHIM=") + env + ": " + std::strerror(errno));
    }
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(env, ec);
    return ec ? std::string(env) : absolute.string();
  }
  const std::string dir = exe_dir();
  const std::string candidates[] = {dir + "/../lib/libctrlsched_shim.so",
                                    dir + "/../lib/ctrlsched/libctrlsched_shim.so"};
  for (const std::string& candidate : candidates) {
    std::error_code ec;
    const auto canonical = std::filesystem::canonical(candidate, ec);
    if (!ec && ::access(canonical.c_str(), R_OK) == 0) return canonical.string();
  }
  throw DriverError(ExitCode::Internal, "cannot find the shim library libctrlsched_shim.so (looked in " +
                                            candidates[0] + " and " + candidates[1] +
                                            "; set CTRLSCHED_SHIM to its path)");
}

// The descriptors the child finds its run record and trace region on, whatever numbers they had
// in the driver (which depend on -j and on which slot ran): with fixed numbers every run of a
// program sees the same environment strings (so the same initial stack) and the same free
// descriptors (so its own open() calls return the same numbers) in every mode. "none", the
// trace variable's value without a trace, is as long as "1022".
constexpr int kChildRecordFd = 1023;
constexpr int kChildTraceFd = 1022;

std::vector<std::string> child_environment(const char* const* parent, const std::string& shim_path,
                                           int record_fd, int trace_fd) {
  std::vector<std::string> env;
  std::string preload = shim_path;
  std::string tunables = kMallocTunables;
  for (const char* const* entry = parent; entry && *entry; ++entry) {
    if (starts_with_var(*entry, "LD_PRELOAD")) {
      const char* old = *entry + std::strlen("LD_PRELOAD=");
      if (*old) preload += std::string(":") + old;
    } else if (starts_with_var(*entry, "GLIBC_TUNABLES")) {
      const char* old = *entry + std::strlen("GLIBC_TUNABLES=");
      if (*old) tunables = std::string(old) + ":" + kMallocTunables;
    } else if (!starts_with_var(*entry, kRecordFdEnv) && !starts_with_var(*entry, kTraceFdEnv)) {
      // (An inherited record or trace descriptor would name some unrelated fd in the child.)
      env.emplace_back(*entry);
    }
  }
  env.push_back("LD_PRELOAD=" + preload);
  env.push_back(std::string(kRecordFdEnv) + "=" + std::to_string(record_fd));
  env.push_back(std::string(kTraceFdEnv) + "=" + (trace_fd >= 0 ? std::to_string(trace_fd) : std::string("none")));
  env.push_back("GLIBC_TUNABLES=" + tunables);
  return env;
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  return cpus;
}

pid_t launch_child(const LaunchTarget& target, RunRecordRegion& region, const LaunchOptions& options) {
  return launch_process(target, region.fd(), &region.record(), options);
}

pid_t launch_process(const LaunchTarget& target, int record_fd, RunRecord* record, const LaunchOptions& options) {
  // Everything the child needs is built here, before fork.
  const std::vector<std::string> env =
      child_environment(environ, target.shim_path, kChildRecordFd, options.trace_fd >= 0 ? kChildTraceFd : -1);
  std::vector<char*> envp;
  for (const std::string& entry : env) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);
  std::vector<char*> argv;
  for (const std::string& arg : target.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  cpu_set_t cpu_set;
  CPU_ZERO(&cpu_set);
  if (options.cpu >= 0) CPU_SET(options.cpu, &cpu_set);
  const pid_t parent = ::getpid();
  const int trace_fd = options.trace_fd;
  const char* cwd = options.cwd;
  // A relative program path would be looked up in the new working directory.
  const std::string exec_path =
      cwd && !target.path.starts_with('/') ? (std::filesystem::current_path() / target.path).string() : target.path;

  const pid_t pid = ::fork();
  if (pid < 0) throw DriverError(ExitCode::Internal, std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the driver
    if (::getppid() != parent) ::_exit(127);
    ::personality(static_cast<unsigned long>(::personality(0xffffffff)) | ADDR_NO_RANDOMIZE);
    // The shim lets one thread run at a time: on a single CPU each handoff is a local wakeup
    // instead of a cross-CPU IPI, about twice as fast.
    if (options.cpu >= 0) ::sched_setaffinity(0, sizeof cpu_set, &cpu_set);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGHUP}) ::signal(sig, SIG_DFL);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0 && null_fd != STDIN_FILENO) {
      ::dup2(null_fd, STDIN_FILENO);
      ::close(null_fd);
    }
    if (options.output_fd >= 0) {
      ::dup2(options.output_fd, STDOUT_FILENO);
      ::dup2(options.output_fd, STDERR_FILENO);
    }
    // The descriptors the shim must inherit, moved to fixed numbers (see kChildRecordFd); the
    // originals are close-on-exec, a dup2 copy is not.
    const auto inherit = [](int fd, int fixed) {
      if (fd == fixed) ::fcntl(fd, F_SETFD, 0);
      else ::dup2(fd, fixed);
    };
    inherit(record_fd, kChildRecordFd);
    if (trace_fd >= 0) inherit(trace_fd, kChildTraceFd);
    if (cwd && ::chdir(cwd) != 0) ::_exit(127);
    if (record) record->owner_pid = ::getpid();
    ::execve(exec_path.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so kill(-pid) works even before the child ran
  return pid;
}

LaunchTarget prepare_launch(const std::string& target_name, const std::vector<std::string>& args,
                            bool private_cwd) {
  LaunchTarget target;
  target.private_cwd = private_cwd;
  target.path = check_target(target_name);
  target.shim_path = locate_shim();
  target.argv.push_back(target_name);
  target.argv.insert(target.argv.end(), args.begin(), args.end());
  return target;
}

}  // namespace ctrlsched::driver

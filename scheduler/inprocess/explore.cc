// ctrlsched::explore: the seed loop around the engine (calibration, CTRLSCHED_REPLAY, fork mode,
// the report).
#include "ctrlsched/inprocess/explore.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "ctrlsched/schedule.h"
#include "engine.h"

namespace ctrlsched {

namespace {

// The driver's calibration (scheduler/driver/runs/calibration.cc): k is the largest step count of
// three random runs (seeds 0..2, no preemption bound), and at least 16.
constexpr std::uint64_t kCalibrationRuns = 3;
constexpr std::uint64_t kMinPctSteps = 16;
constexpr const char* kReplayEnv = "CTRLSCHED_REPLAY";

RunSpec spec_for(const ExploreOptions& o, std::uint64_t seed, std::uint64_t pct_steps) {
  RunSpec spec;
  spec.seed = seed;
  spec.strategy = o.strategy;
  spec.pct_depth = o.depth;
  spec.pct_steps = pct_steps;
  if (o.strategy == StrategyKind::Random) spec.preemption_bound = o.preemption_bound;
  spec.spurious_wakeups = o.spurious_wakeups;
  spec.points = o.points;
  spec.max_steps = o.max_steps;
  return spec;
}

detail::RunOutcome run_in_process(const RunSpec& spec, const ExploreOptions& o,
                                  const std::function<void()>& body) {
  detail::Engine engine(spec, o.stack_size, &o.failure_probe);
  return engine.run(body);
}

// Fork mode: the child runs the seed and sends its outcome through a pipe as text lines:
// kind, steps, hash, decision tokens, then the message.
void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

detail::RunOutcome run_forked(const RunSpec& spec, const ExploreOptions& o,
                              const std::function<void()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("ctrlsched::explore: pipe() failed");
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("ctrlsched::explore: fork() failed");
  if (pid == 0) {
    close(fds[0]);
    // A crash is this run's outcome, seen by the parent: the test framework's own crash
    // handlers (which would report and end the whole test program from the child) are reset.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) std::signal(sig, SIG_DFL);
    detail::RunOutcome out = run_in_process(spec, o, body);
    std::ostringstream text;
    text << static_cast<int>(out.kind) << '\n' << out.steps << '\n' << out.hash << '\n';
    for (Decision d : out.decisions) text << to_token(d) << ' ';
    text << '\n' << out.message;
    write_all(fds[1], text.str());
    std::fflush(nullptr);
    _exit(0);
  }
  close(fds[1]);
  std::string data;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    data.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  detail::RunOutcome out;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || data.empty()) {
    out.kind = FailureKind::Crash;
    if (WIFSIGNALED(status))
      out.message = std::string("the run's child process died of signal ") + std::to_string(WTERMSIG(status)) +
                    " (" + strsignal(WTERMSIG(status)) + ")";
    else
      out.message = "the run's child process exited with status " + std::to_string(WEXITSTATUS(status));
    return out;
  }
  std::istringstream in(data);
  int kind = 0;
  std::string tokens;
  in >> kind >> out.steps >> out.hash;
  in.ignore(1);
  std::getline(in, tokens);
  std::istringstream token_stream(tokens);
  for (std::string token; token_stream >> token;)
    if (auto d = parse_token(token)) out.decisions.push_back(*d);
  out.message.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  out.kind = static_cast<FailureKind>(kind);
  return out;
}

detail::RunOutcome run_one(const RunSpec& spec, const ExploreOptions& o, const std::function<void()>& body) {
  return o.fork_each_iteration ? run_forked(spec, o, body) : run_in_process(spec, o, body);
}

FailedRun failed_run(const RunSpec& spec, detail::RunOutcome&& out) {
  FailedRun f;
  f.seed = spec.seed;
  RunSpec with_hash = spec;
  with_hash.expected_hash = out.hash;
  f.handle = to_handle(with_hash);
  f.kind = out.kind;
  f.message = std::move(out.message);
  f.steps = out.steps;
  Schedule schedule{f.handle, out.hash, out.decisions};
  f.schedule_text = to_text(schedule);
  f.decisions = std::move(out.decisions);
  return f;
}

std::uint64_t calibrate(const ExploreOptions& o, const std::function<void()>& body) {
  std::uint64_t steps = kMinPctSteps;
  for (std::uint64_t seed = 0; seed < kCalibrationRuns; ++seed) {
    RunSpec spec = spec_for(o, seed, 0);
    spec.strategy = StrategyKind::Random;
    spec.preemption_bound.reset();
    steps = std::max(steps, run_one(spec, o, body).steps);
  }
  return steps;
}

ExploreResult replay(const ExploreOptions& o, const std::function<void()>& body, const char* handle) {
  ExploreResult result;
  result.replayed = true;
  std::string error;
  std::optional<RunSpec> spec = parse_handle(handle, &error);
  if (!spec || spec->strategy == StrategyKind::Replay)
    throw std::invalid_argument(std::string("ctrlsched: bad ") + kReplayEnv + " handle '" + handle +
                                "': " + (spec ? "replay handles are not supported" : error));
  const std::optional<std::uint64_t> expected = spec->expected_hash;
  spec->expected_hash.reset();
  result.pct_steps = spec->pct_steps;
  detail::RunOutcome out = run_one(*spec, o, body);
  result.runs = 1;
  if (out.kind == FailureKind::None && expected && *expected != out.hash) {
    out.kind = FailureKind::Divergence;
    out.message = "replay diverged: the handle's schedule hash is " + format_hash(*expected) +
                  ", this run's is " + format_hash(out.hash) + " (the test or its code changed?)";
  }
  if (out.kind != FailureKind::None) {
    result.failures = 1;
    result.first_failure = failed_run(*spec, std::move(out));
  }
  return result;
}

}  // namespace

std::string_view to_string(FailureKind kind) {
  switch (kind) {
    case FailureKind::None: return "none";
    case FailureKind::Check: return "check";
    case FailureKind::Assertion: return "assertion";
    case FailureKind::Exception: return "exception";
    case FailureKind::Deadlock: return "deadlock";
    case FailureKind::Hang: return "hang";
    case FailureKind::Crash: return "crash";
    case FailureKind::Misuse: return "misuse";
    case FailureKind::Divergence: return "divergence";
  }
  return "unknown";
}

ExploreResult explore(const ExploreOptions& options, std::function<void()> body) {
  if (detail::engine_on()) throw std::logic_error("ctrlsched::explore called inside an explore run");
  if (options.strategy == StrategyKind::Replay)
    throw std::invalid_argument("ctrlsched::explore: strategy must be Random or Pct");
  if (options.honour_replay_env) {
    if (const char* handle = std::getenv(kReplayEnv); handle && *handle) return replay(options, body, handle);
  }
  ExploreResult result;
  std::uint64_t pct_steps = options.pct_steps;
  if (options.strategy == StrategyKind::Pct && pct_steps == 0) pct_steps = calibrate(options, body);
  result.pct_steps = options.strategy == StrategyKind::Pct ? pct_steps : 0;
  for (std::uint64_t i = 0; i < options.seeds; ++i) {
    const RunSpec spec = spec_for(options, options.seed_start + i, pct_steps);
    detail::RunOutcome out = run_one(spec, options, body);
    ++result.runs;
    if (out.kind == FailureKind::None) continue;
    ++result.failures;
    if (!result.first_failure) result.first_failure = failed_run(spec, std::move(out));
    if (options.stop_after != 0 && result.failures >= options.stop_after) break;
  }
  return result;
}

std::string ExploreResult::report(std::string_view rerun) const {
  std::ostringstream out;
  if (!first_failure) {
    out << "ctrlsched: " << runs << (runs == 1 ? " run" : " runs") << " passed";
    return out.str();
  }
  const FailedRun& f = *first_failure;
  out << "ctrlsched: seed " << f.seed << " failed (" << to_string(f.kind) << ")";
  if (!replayed) out << ", " << failures << " failing of " << runs << " runs";
  std::string message = f.message;  // continuation lines indented under the first
  for (std::size_t at = message.find('\n'); at != std::string::npos; at = message.find('\n', at + 3))
    message.replace(at, 1, "\n  ");
  out << "\n  " << message;
  out << "\n  handle: " << f.handle;
  out << "\n  schedule: " << f.decisions.size() << " decisions, " << f.steps << " steps";
  if (!replayed)
    out << "\n  replay: CTRLSCHED_REPLAY='" << f.handle << "' " << rerun;
  return out.str();
}

bool in_explore() noexcept {
  detail::Engine* e = detail::tls_engine;
  return e != nullptr && !e->tearing_down() && e->current() != nullptr;
}

void check(bool condition, std::string_view message) {
  if (condition) return;
  if (detail::tls_engine == nullptr) throw check_failed(std::string(message));
  if (!in_explore()) return;
  detail::tls_engine->fail(FailureKind::Check,
                           "T" + std::to_string(detail::self()) + ": " + std::string(message));
}

void note_failure(FailureKind kind, std::string message) {
  if (!in_explore()) return;
  detail::tls_engine->note(kind, "T" + std::to_string(detail::self()) + ": " + message);
}

}  // namespace ctrlsched

// Shrink mode (see shrink.h and docs/shrinking.md).
#include "modes/shrink.h"

#include "modes/modes.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "ctrlsched/localize/trace_file.h"
#include "modes/ddmin.h"
#include "modes/replay.h"
#include "modes/shift_search.h"
#include "modes/trace.h"
#include "report/interleaving.h"
#include "report/shell_quote.h"
#include "report/symbolizer.h"
#include "runs/portfolio.h"
#include "runs/child_launch.h"
#include "runs/outcome.h"
#include "runs/run_collect.h"
#include "runs/run_record_region.h"
#include "runs/schedule_store.h"
#include "runs/trace_region.h"

namespace ctrlsched::driver {
namespace {

// Runs the search for a smaller failing set after ddmin may spend (see ddmin.h): all sets of one
// and two preemptions of a run with up to 44 preemptions, of three with up to 18.
constexpr std::uint64_t kExhaustiveBudget = 1000;
// The shift search after that (shift_search.h): how far a preemption moves, in points of its
// thread, and how many runs the search may spend.
constexpr std::uint64_t kMaxShift = 8;
constexpr std::uint64_t kShiftBudget = 1000;

// Stands for all the free-choice hints of the named run in a set of preemptions: a Free entry no
// run can produce (no thread has id kNoThread, point indices start at 1), so the shift search
// carries it along unchanged.
const SwitchPoint kHints = make_switch_point(SwitchKind::Free, kNoThread, 0, kNoThread);

struct SwitchLog {
  std::vector<SwitchPoint> entries;
  bool truncated = false;
};

SwitchLog read_switch_log(const RunRecord& record) {
  const auto* base = reinterpret_cast<const std::uint8_t*>(&record) + kSwitchLogOffset;
  SwitchLogHeader header;
  std::memcpy(&header, base, sizeof header);
  SwitchLog log;
  log.truncated = header.truncated != 0;
  const std::uint64_t count = std::min<std::uint64_t>(header.count, kSwitchLogCapacity);
  log.entries.resize(static_cast<std::size_t>(count));
  if (count > 0) std::memcpy(log.entries.data(), base + sizeof header, log.entries.size() * sizeof(SwitchPoint));
  return log;
}

std::vector<std::uint8_t> encode_plan(const std::vector<SwitchPoint>& plan) {
  std::vector<std::uint8_t> bytes(plan.size() * sizeof(SwitchPoint));
  if (bytes.size() > kLogRegionBytes) {
    throw DriverError(ExitCode::Internal, "the switch points (" + std::to_string(plan.size()) +
                                              ") do not fit the run record's input log");
  }
  if (!plan.empty()) std::memcpy(bytes.data(), plan.data(), bytes.size());
  return bytes;
}

unsigned shrink_default_jobs() {
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 ? static_cast<unsigned>(cpus) : 1;
}

std::string describe(const RunResult& r) {
  return r.failure ? r.failure->message : std::string(to_string(r.kind));
}

// Everything the runs of one shrink share.
class Shrinker {
 public:
  Shrinker(const CommandLine& cl, ReplayPlan plan) : cl_(cl), plan_(std::move(plan)) {
    const Options& o = cl.options;
    target_ = prepare_launch(cl.target, cl.args, o.private_cwd);
    if (plan_.spec.strategy != StrategyKind::Replay) {
      plan_.spec = calibrated_spec(target_, plan_.spec, *o.timeout, cl.target);
    }
    spec_ = plan_.spec;
    spec_.expected_hash.reset();
    jobs_ = o.jobs ? static_cast<unsigned>(*o.jobs) : shrink_default_jobs();
    pool_.timeout = std::chrono::duration<double>(*o.timeout);
    pool_.capture_output = true;
    context_.timeout_seconds = *o.timeout;
    context_.passing_exit_codes = *o.pass_exit_codes;
    context_.symbolize = symbolizer_.function();
    context_.data_symbol = symbolizer_.data_function();
  }

  ShrinkResult run() {
    ShrinkResult result;
    result.handle = cl_.handle ? *cl_.handle
                               : plan_.spec.strategy == StrategyKind::Replay ? plan_.file_handle : to_handle(plan_.spec);
    schedule_handle_ = !plan_.file_handle.empty() ? plan_.file_handle : to_handle(spec_);

    // 1. The named run, with its switch points.
    const Extracted original = extract();
    ++result.total_runs;
    result.kind = original.result.kind;
    result.preemptions_before = original.result.preemptions;
    if (original.diverged) return stop(result, ShrinkStatus::Diverged, original.problem);
    if (!original.result.failed()) return stop(result, ShrinkStatus::Passed, "");
    if (original.result.kind == OutcomeKind::Timeout) {
      return stop(result, ShrinkStatus::NotReproduced,
                  "the run timed out (killed after --timeout seconds of wall time): not a reproducible failure");
    }
    if (original.log.truncated) {
      return stop(result, ShrinkStatus::NotReproduced,
                  "the run switched threads more than " + std::to_string(kSwitchLogCapacity) +
                      " times: too many to shrink");
    }
    kind_ = original.result.kind;
    signature_ = original.result.failure ? original.result.failure->signature : std::string(to_string(kind_));
    result.signature = signature_;
    for (const SwitchPoint& p : original.log.entries) {
      (p.switch_kind() == SwitchKind::Preempt ? preemptions_ : hints_).push_back(p);
    }

    // 2. Rebuilt from all its switch points, it must fail the same way.
    Configuration all(preemptions_.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const std::vector<bool> full = test({all});
    result.total_runs += 1;
    if (!full.front()) {
      return stop(result, ShrinkStatus::NotReproduced,
                  "rebuilt from its " + std::to_string(preemptions_.size()) + " preemptions and " +
                      std::to_string(hints_.size()) + " free choices, the run did not fail the same way (" +
                      last_outcome_ + ")");
    }

    // 3. ddmin over the preemptions, with the hints (it tests none at all first).
    std::uint64_t ddmin_runs = 0;
    const DdminResult minimal = ddmin(preemptions_.size(), jobs_, [&](const std::vector<Configuration>& configs) {
      ddmin_runs += configs.size();
      return test(configs);
    }, kExhaustiveBudget);
    Preemptions kept = {kHints};
    for (const std::size_t i : minimal.minimal) kept.push_back(preemptions_[i]);
    // No preemption and no hints: the non-preemptive default alone.
    std::uint64_t extra_tests = 0;
    if (!minimal.minimal.empty()) {
      ++extra_tests;
      if (test_sets({Preemptions{}}).front()) kept.clear();
    }

    // 4. Moving preemptions to nearby points may reach an even smaller set.
    std::uint64_t shift_runs = 0;
    const ShiftResult shifted =
        shift_search(kept, kMaxShift, kShiftBudget, jobs_, [&](const std::vector<Preemptions>& sets) {
          shift_runs += sets.size();
          return test_sets(sets);
        });
    result.test_runs = 1 + minimal.tests + extra_tests + shifted.tests;
    result.total_runs += ddmin_runs + extra_tests + shift_runs;

    // 5. The shrunk run again, traced.
    Final final_run = run_final(with_hints(shifted.preemptions));
    ++result.total_runs;
    result.message = describe(final_run.result);
    result.preemptions_after = final_run.result.preemptions;
    result.interleaving = std::move(final_run.interleaving);
    for (const SwitchPoint& p : final_run.log.entries) {
      if (p.switch_kind() == SwitchKind::Preempt) result.preemptions.push_back(p);
    }
    if (!same_failure(final_run.result)) {
      return stop(result, ShrinkStatus::NotReproduced,
                  "the shrunk run did not fail the same way when run again (" + describe(final_run.result) +
                      "): the test is not deterministic under ctrlsched");
    }
    if (!final_run.schedule) {
      return stop(result, ShrinkStatus::NotReproduced, final_run.problem + ": no schedule to save");
    }
    result.schedule = std::move(*final_run.schedule);

    // 6. Its decision log, replayed as `replay --schedule` would.
    ++result.total_runs;
    if (const std::string problem = check_replay(result.schedule); !problem.empty()) {
      return stop(result, ShrinkStatus::NotReproduced, problem);
    }
    result.status = ShrinkStatus::Shrunk;
    return result;
  }

 private:
  struct Extracted {
    RunResult result;
    SwitchLog log;
    bool diverged = false;
    std::string problem;
  };

  struct Final {
    RunResult result;
    SwitchLog log;
    std::optional<Schedule> schedule;
    std::string problem;
    std::vector<std::string> interleaving;
  };

  static ShrinkResult stop(ShrinkResult& result, ShrinkStatus status, std::string problem) {
    result.status = status;
    result.problem = std::move(problem);
    return std::move(result);
  }

  bool same_failure(const RunResult& r) const {
    if (r.kind != kind_) return false;
    const std::string signature = r.failure ? r.failure->signature : std::string(to_string(r.kind));
    return signature == signature_;
  }

  Extracted extract() {
    RunJob job;
    job.config = run_config_for(plan_.spec);
    if (plan_.spec.strategy == StrategyKind::Replay) job.input_log = encode_input_log(plan_.input, kLogRegionBytes);
    job.config.collectors |= kCollectSwitches;
    return run_single<Extracted>(target_, pool_, std::move(job), [&](const FinishedRun& run) {
      Extracted out;
      out.result = collect_result(run, spec_, context_, cl_.target);
      out.log = read_switch_log(run.region.record());
      const std::uint64_t hash = run.region.record().schedule_hash;
      if (out.result.kind == OutcomeKind::Diverged) {
        out.diverged = true;
        out.problem = "the run left its recorded schedule: " + describe(out.result);
      } else if (plan_.expected_hash && !run.exit.timed_out && hash != *plan_.expected_hash) {
        out.diverged = true;
        out.problem = "the run produced schedule " + format_hash(hash) + ", expected " + format_hash(*plan_.expected_hash);
      }
      return out;
    });
  }

  // The plan for a set: its entries, and the hints if it holds kHints (except those at a point
  // where the set has a Free entry of its own: the strategy follows one entry per point).
  std::vector<SwitchPoint> with_hints(const Preemptions& set) const {
    std::vector<SwitchPoint> plan;
    std::copy_if(set.begin(), set.end(), std::back_inserter(plan), [](const SwitchPoint& p) { return p != kHints; });
    if (std::find(set.begin(), set.end(), kHints) == set.end()) return plan;
    for (const SwitchPoint& hint : hints_) {
      const bool overridden = std::any_of(set.begin(), set.end(), [&](const SwitchPoint& p) {
        return p != kHints && p.kind == hint.kind && p.thread == hint.thread && p.point == hint.point;
      });
      if (!overridden) plan.push_back(hint);
    }
    return plan;
  }

  RunJob preemption_job(const std::vector<SwitchPoint>& plan) const {
    RunSpec spec = spec_;
    spec.strategy = StrategyKind::Preemptions;
    RunJob job;
    job.config = run_config_for(spec);
    job.input_log = encode_plan(plan);
    return job;
  }

  // Configurations of the named run's preemptions, with the hints, tested as below.
  std::vector<bool> test(const std::vector<Configuration>& configs) {
    std::vector<Preemptions> sets;
    for (const Configuration& config : configs) {
      Preemptions& set = sets.emplace_back();
      set.push_back(kHints);
      for (const std::size_t i : config) set.push_back(preemptions_[i]);
    }
    return test_sets(sets);
  }

  // One run per set of preemptions (with all the hints), up to -j at a time; true where it
  // failed the same way.
  std::vector<bool> test_sets(const std::vector<Preemptions>& sets) {
    std::vector<bool> fails(sets.size(), false);
    PoolOptions options = pool_;
    options.jobs = static_cast<unsigned>(std::clamp<std::size_t>(sets.size(), 1, jobs_));
    WorkerPool pool(target_, options);
    pool.run(
        sets.size(), [&](std::uint64_t i) { return preemption_job(with_hints(sets[static_cast<std::size_t>(i)])); },
        [&](const FinishedRun& run) {
          const RunResult r = collect_result(run, spec_, context_, cl_.target);
          fails[static_cast<std::size_t>(run.index)] = same_failure(r);
          if (sets.size() == 1) last_outcome_ = describe(r);
          return true;
        });
    return fails;
  }

  Final run_final(const std::vector<SwitchPoint>& plan) {
    TraceRegion region;
    RunJob job = preemption_job(plan);
    job.config.collectors |= kCollectSwitches;
    job.trace_fd = region.fd();
    return run_single<Final>(target_, pool_, std::move(job), [&](const FinishedRun& run) {
      Final out;
      const RunRecord& record = run.region.record();
      out.result = collect_result(run, spec_, context_, cl_.target);
      out.log = read_switch_log(record);
      out.schedule = recorded_schedule(run.region, schedule_handle_, &out.problem);
      const localize::Trace trace =
          localize::from_region(region.data(), region.size(), record.modules, schedule_handle_, record.schedule_hash);
      DumpSymbolizer names(symbolizer_);
      out.interleaving = render_interleaving(trace, out.log.entries, names);
      return out;
    });
  }

  std::string check_replay(const Schedule& schedule) {
    RunSpec spec = spec_;
    spec.strategy = StrategyKind::Replay;
    RunJob job;
    job.config = run_config_for(spec);
    job.input_log = encode_input_log(schedule.decisions, kLogRegionBytes);
    const RunResult r = run_single<RunResult>(target_, pool_, std::move(job), [&](const FinishedRun& run) {
      RunResult out = collect_result(run, spec_, context_, cl_.target);
      if (run.region.record().schedule_hash != schedule.hash && out.kind != OutcomeKind::Diverged) {
        out.kind = OutcomeKind::Diverged;
        out.failure.reset();
      }
      return out;
    });
    if (same_failure(r)) return "";
    return "the shrunk schedule, replayed from its decision log, did not fail the same way (" + describe(r) + ")";
  }

  const CommandLine& cl_;
  ReplayPlan plan_;
  LaunchTarget target_;
  RunSpec spec_;
  unsigned jobs_ = 1;
  PoolOptions pool_;
  Symbolizer symbolizer_;
  ClassifyContext context_;
  std::string schedule_handle_;
  OutcomeKind kind_ = OutcomeKind::Pass;
  std::string signature_;
  std::vector<SwitchPoint> preemptions_;  // of the named run, in run order
  std::vector<SwitchPoint> hints_;        // its free choices, kept as a whole or not at all
  std::string last_outcome_;
};

std::string plural(std::uint64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

ShrinkResult shrink(const CommandLine& cl) {
  ReplayPlan plan = plan_replay(cl);
  // A schedule file names its seed through its handle, if that parses.
  const std::optional<RunSpec> named =
      plan.spec.strategy == StrategyKind::Replay ? parse_handle(plan.file_handle) : std::optional<RunSpec>(plan.spec);
  const bool has_seed = named.has_value();
  const std::uint64_t seed = has_seed ? named->seed : 0;
  const std::uint64_t hash = plan.expected_hash.value_or(0);
  Shrinker shrinker(cl, std::move(plan));
  ShrinkResult result = shrinker.run();
  if (has_seed) result.seed = seed;
  result.original_hash = hash;
  return result;
}

ShrinkResult shrink_handle(const std::string& handle, const std::string& target, const std::vector<std::string>& args,
                           unsigned jobs) {
  std::vector<std::string> words = {"shrink", "-j", std::to_string(std::max(jobs, 1u)), handle, target};
  words.insert(words.end(), args.begin(), args.end());
  return shrink(parse_command_line(words));
}

std::string default_shrunk_path(const ShrinkResult& result) {
  return "shrunk-" + (result.seed ? std::to_string(*result.seed) : format_hash(result.original_hash)) + ".sched";
}

std::string render_shrink_report(const ShrinkResult& r, const std::string& schedule_path) {
  std::string text;
  switch (r.status) {
    case ShrinkStatus::Passed:
      return "PASS  the run passed: nothing to shrink\n";
    case ShrinkStatus::Diverged:
    case ShrinkStatus::NotReproduced:
      return "NOT SHRUNK  " + r.problem + "\n";
    case ShrinkStatus::Shrunk:
      break;
  }
  text += "FAIL  " + r.message + "\n";
  text += "preemptions: " + std::to_string(r.preemptions_before) + " -> " + std::to_string(r.preemptions_after) +
          " · " + plural(r.test_runs, "test run") + " (" + std::to_string(r.total_runs) + " runs in all)\n";
  text += "interleaving (" + plural(r.preemptions_after, "preemption") + "):\n";
  for (const std::string& line : r.interleaving) text += "  " + line + "\n";
  if (!schedule_path.empty()) text += "wrote " + schedule_path + "\n";
  return text;
}

ExitCode run_shrink(const CommandLine& cl) {
  const Options& o = cl.options;
  if (o.save_schedule) {
    if (const std::string problem = output_problem(*o.save_schedule); !problem.empty()) {
      usage_error("cannot write " + *o.save_schedule + ": " + problem);
    }
  }
  if (!o.quiet) {
    const std::string what = cl.handle ? *cl.handle : o.schedule ? "schedule file " + *o.schedule : "seed " + std::to_string(*o.seed);
    std::printf("ctrlsched shrink: %s · %s\n", what.c_str(), cl.target.c_str());
    std::fflush(stdout);
  }
  const ShrinkResult result = shrink(cl);
  std::string path;
  std::string warning;
  if (result.status == ShrinkStatus::Shrunk) {
    path = o.save_schedule ? *o.save_schedule : default_shrunk_path(result);
    warning = write_schedule_file(path, result.schedule);
    if (!warning.empty()) path.clear();
  }
  std::string text = render_shrink_report(result, path);
  if (!path.empty() && !o.quiet) {
    std::vector<std::string> words = {"ctrlsched", "replay", "--schedule", path, cl.target};
    words.insert(words.end(), cl.args.begin(), cl.args.end());
    text += "      replay:  " + shell_join(words) + "\n";
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  if (!warning.empty()) std::fprintf(stderr, "ctrlsched: warning: %s; schedule not saved\n", warning.c_str());
  switch (result.status) {
    case ShrinkStatus::Shrunk: return ExitCode::Failures;
    case ShrinkStatus::Passed: return ExitCode::Ok;
    case ShrinkStatus::Diverged:
    case ShrinkStatus::NotReproduced: break;
  }
  return ExitCode::Diverged;
}

}  // namespace ctrlsched::driver

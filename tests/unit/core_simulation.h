// A tiny simulated multi-threaded program that drives a Strategy the way the shim does, without
// any real threads: shared by the strategy tests.
//
// Model: each simulated thread is a list of steps. At every scheduling point the current thread
// is about to execute its next step; the point's kind is that step's kind (ThreadExit once the
// thread has no steps left). A Blocked step makes the current thread not enabled at that point
// (a forced switch); if nobody else can run, the block resolves itself and the point becomes a
// Sync. The chosen thread then executes its next step, asking the strategy the step's wake and
// spurious-wakeup questions. (The kind of a thread's first step matters only for T0: the others
// are entered by being chosen.) The simulator counts preemptions itself, so tests can compare.
// A thread that some step creates (Step::creates) is no candidate until that step has run, and
// the strategy hears of it then (on_thread_created, parent the creating thread); every other
// thread exists from the start (created by T0 before the first point).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ctrlsched/decision.h"
#include "ctrlsched/prng.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched::sim {

struct Step {
  PointKind kind = PointKind::Sync;
  std::vector<ThreadId> waiters = {};  // >= 2: executing the step wakes one of them (pick_waiter)
  bool asks_spurious = false;          // executing the step asks spurious_wakeup(executing thread)
  ThreadId creates = kNoThread;        // executing the step creates this thread (a pthread_create)
};

using Program = std::vector<std::vector<Step>>;  // per thread, T0 first

struct Run {
  std::vector<ThreadId> executed;  // the thread that executed each step, in order
  std::vector<Decision> answers;   // every answer to every request, forced ones included
  std::uint64_t points = 0;
  std::uint64_t choices = 0;       // requests with more than one option (what a recording logs)
  std::uint64_t preemptions = 0;   // counted by the simulator
  std::vector<std::uint32_t> thread_points;  // per thread, the points at which it was current:
                                              // the steps the shim counts for SURW's calibration
  bool invalid_answer = false;     // the strategy chose a non-candidate or a bad waiter index
};

// n threads each executing `steps` Sync steps.
inline Program uniform_program(std::size_t threads, std::size_t steps) {
  return Program(threads, std::vector<Step>(steps));
}

inline Run simulate(const Program& program, Strategy& strategy) {
  const std::size_t n = program.size();
  std::vector<bool> live(n, true);
  for (const std::vector<Step>& steps : program) {
    for (const Step& step : steps) {
      if (step.creates < n) live[step.creates] = false;
    }
  }
  for (ThreadId t = 0; t < n; ++t) {
    if (live[t]) strategy.on_thread_created(t, t == 0 ? kNoThread : 0);
  }
  std::vector<std::size_t> pc(n, 0);
  const auto finished = [&](ThreadId t) { return !live[t] || pc[t] == program[t].size(); };
  Run run;
  run.thread_points.assign(n, 0);
  ThreadId current = 0;
  std::vector<Candidate> candidates;
  while (true) {
    PointKind kind = finished(current) ? PointKind::ThreadExit : program[current][pc[current]].kind;
    bool current_enabled = kind != PointKind::ThreadExit && kind != PointKind::Blocked;
    candidates.clear();
    for (ThreadId t = 0; t < n; ++t) {
      if (!finished(t) && (t != current || current_enabled)) candidates.push_back({t, false});
    }
    if (candidates.empty()) {
      if (finished(current)) break;  // every thread has exited
      kind = PointKind::Sync;        // a lone blocked thread: the block resolves itself
      current_enabled = true;
      candidates.push_back({current, false});
    }
    ++run.points;
    ++run.thread_points[current];
    run.choices += candidates.size() > 1 ? 1 : 0;
    const SchedulingPoint point{current, current_enabled, kind, run.points, candidates};
    const ThreadId chosen = strategy.next_thread(point);
    run.answers.push_back({DecisionKind::Schedule, chosen});
    if (std::none_of(candidates.begin(), candidates.end(), [&](const Candidate& c) { return c.tid == chosen; })) {
      run.invalid_answer = true;
      break;
    }
    if (chosen != current && current_enabled && kind != PointKind::Yield) ++run.preemptions;

    const Step& step = program[chosen][pc[chosen]];
    if (step.waiters.size() >= 2) {
      ++run.choices;
      const std::size_t index = strategy.pick_waiter(WakeKind::CondSignal, step.waiters);
      if (index >= step.waiters.size()) {
        run.invalid_answer = true;
        break;
      }
      run.answers.push_back({DecisionKind::Wake, step.waiters[index]});
    }
    run.choices += step.asks_spurious ? 1 : 0;
    if (step.asks_spurious) run.answers.push_back({DecisionKind::Spurious, strategy.spurious_wakeup(chosen) ? 1u : 0u});
    run.executed.push_back(chosen);
    ++pc[chosen];
    if (step.creates < n && !live[step.creates]) {
      live[step.creates] = true;
      strategy.on_thread_created(step.creates, chosen);
    }
    current = chosen;
  }
  return run;
}

// A random program: 1..max_threads threads of 0..max_steps steps (T0 has at least one), with
// every point kind a step can have, and some wake / spurious questions.
inline Program random_program(Prng& prng, std::size_t max_threads, std::size_t max_steps) {
  static constexpr PointKind kKinds[] = {PointKind::Sync, PointKind::Access, PointKind::Yield,
                                         PointKind::Blocked, PointKind::Create};
  Program program(1 + prng.below(max_threads));
  for (std::size_t t = 0; t < program.size(); ++t) {
    const std::size_t steps = t == 0 ? 1 + prng.below(max_steps) : prng.below(max_steps + 1);
    for (std::size_t i = 0; i < steps; ++i) {
      Step step{kKinds[prng.below(std::size(kKinds))]};
      if (prng.one_in(6)) step.waiters = {1, 3, 4};
      step.asks_spurious = prng.one_in(8);
      program[t].push_back(step);
    }
  }
  return program;
}

// The decisions a RecordingStrategy logs for a run: answers to requests with more than one option.
class VectorSink final : public DecisionSink {
 public:
  void append(Decision d) override { decisions.push_back(d); }
  std::vector<Decision> decisions;
};

}  // namespace ctrlsched::sim

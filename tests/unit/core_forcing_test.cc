// ForcingStrategy on simulated programs: each thread is a list of accesses (kind, site); at every
// point each unfinished thread is a candidate whose pending access is its next one, the strategy
// picks, and the chosen thread performs that access (observe), as the shim does.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ctrlsched/forcing.h"

using namespace ctrlsched;

namespace {

struct Access {
  bool write;
  std::uint64_t site;
  bool blocks_until_done = false;  // not runnable until every other thread finished
};
using Program = std::vector<std::vector<Access>>;

struct Performed {
  ThreadId thread;
  bool write;
  std::uint64_t site;
  friend bool operator==(const Performed&, const Performed&) = default;
};

struct SimRun {
  std::vector<Performed> performed;
  std::vector<ThreadId> answers;
  bool invalid = false;
};

// Every point is decided (the strategy's lease is asked where the shim would ask it and must be
// 0 while the directive is active).
SimRun simulate(const Program& program, ForcingStrategy& strategy) {
  const std::size_t n = program.size();
  for (ThreadId t = 0; t < n; ++t) strategy.on_thread_created(t, t == 0 ? kNoThread : 0);
  std::vector<std::size_t> pc(n, 0);
  const auto finished = [&](ThreadId t) { return pc[t] == program[t].size(); };
  const auto runnable = [&](ThreadId t) {
    if (finished(t)) return false;
    if (!program[t][pc[t]].blocks_until_done) return true;
    for (ThreadId o = 0; o < n; ++o)
      if (o != t && !finished(o)) return false;
    return true;
  };
  SimRun run;
  ThreadId current = 0;
  std::uint64_t step = 0;
  std::vector<Candidate> candidates;
  while (true) {
    candidates.clear();
    for (ThreadId t = 0; t < n; ++t) {
      if (!runnable(t)) continue;
      const Access& a = program[t][pc[t]];
      candidates.push_back({t, false, a.write ? PendingKind::Write : PendingKind::Read, a.site, 0x1000});
    }
    if (candidates.empty()) break;
    const bool current_enabled = runnable(current);
    const SchedulingPoint point{current, current_enabled, PointKind::Access, ++step, candidates};
    const ThreadId chosen = strategy.next_thread(point);
    run.answers.push_back(chosen);
    if (!runnable(chosen)) {
      run.invalid = true;
      break;
    }
    if (chosen == current && candidates.size() > 1 && strategy.active()) CHECK(strategy.lease(point) == 0);
    const Access& a = program[chosen][pc[chosen]++];
    strategy.observe(TraceEvent{static_cast<std::uint8_t>(a.write ? EventKind::Write : EventKind::Read), 4, 0,
                                chosen, 0x1000, a.site});
    run.performed.push_back({chosen, a.write, a.site});
    current = chosen;
  }
  return run;
}

constexpr std::uint64_t kRead = 0x10, kWrite = 0x20, kOther = 0x30;

// Two incrementers (read then write), twice each: `counter++` in a loop.
Program incrementers() {
  const std::vector<Access> body = {{false, kRead}, {true, kWrite}, {false, kRead}, {true, kWrite}};
  return {body, body};
}

// The lost-update triple: R by role 0, W by role 1, W by role 0.
ForceDirective lost_update_triple(std::uint32_t hold_limit = 0) {
  return order_directive({force_step(kRead, ForceAccess::Read, 0), force_step(kWrite, ForceAccess::Write, 1),
                          force_step(kWrite, ForceAccess::Write, 0)},
                         hold_limit);
}

// Main (T0) and a thread it created (T1).
void start_two_threads(ForcingStrategy& forcing) {
  forcing.on_thread_created(0, kNoThread);
  forcing.on_thread_created(1, 0);
}

// The pair W(kWrite) by role 0, then R(kRead) by role 1, on one location.
ForceDirective write_then_read() {
  return order_directive({force_step(kWrite, ForceAccess::Write, 0), force_step(kRead, ForceAccess::Read, 1)});
}

// An access the strategy learns was performed, as the shim's event feed reports it.
void perform(ForcingStrategy& forcing, ThreadId t, bool write, std::uint64_t site, std::uint64_t address) {
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(write ? EventKind::Write : EventKind::Read), 4, 0, t, address,
                             site});
}

// Where `want` appears in `performed` as a contiguous run (index of its first element), or -1.
long find_sequence(const std::vector<Performed>& performed, const std::vector<Performed>& want) {
  for (std::size_t i = 0; i + want.size() <= performed.size(); ++i) {
    if (std::equal(want.begin(), want.end(), performed.begin() + static_cast<long>(i))) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace

TEST_CASE("forcing: the lost-update triple happens, immediately, for every seed", "[forcing]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const auto base = make_random_strategy(seed, std::nullopt);
    ForcingStrategy forcing(*base, lost_update_triple());
    const SimRun run = simulate(incrementers(), forcing);
    REQUIRE_FALSE(run.invalid);
    REQUIRE(forcing.outcome().completed == 1);
    CHECK(forcing.outcome().steps_done == 3);
    CHECK(forcing.outcome().holds_dropped == 0);
    // Role 0 is the first reader; role 1 the other thread. Immediacy: the first W of role 1
    // is followed at once by role 0's W.
    const ThreadId a = std::find_if(run.performed.begin(), run.performed.end(), [](const Performed& p) {
                         return !p.write;
                       })->thread;
    const ThreadId b = 1 - a;
    CHECK(find_sequence(run.performed, {{b, true, kWrite}, {a, true, kWrite}}) >= 0);
    // a's first write comes after b's first write: a's read-to-write window was split.
    const auto first_write_of = [&](ThreadId t) {
      return std::find(run.performed.begin(), run.performed.end(), Performed{t, true, kWrite}) - run.performed.begin();
    };
    CHECK(first_write_of(b) < first_write_of(a));
    CHECK_FALSE(forcing.active());
  }
}

TEST_CASE("forcing: between its steps a role's thread does not move on", "[forcing]") {
  // check_then_act: each thread checks the balance (kOther), then subtracts (read kRead, write
  // kWrite). The pattern R1(check)-W2-W1 only makes the overdraft happen if role 0's read of the
  // subtraction also comes after role 1's write: rule 3b holds role 0 at every point.
  const std::vector<Access> withdraw = {{false, kOther}, {false, kRead}, {true, kWrite}};
  const ForceDirective pattern =
      order_directive({force_step(kOther, ForceAccess::Read, 0), force_step(kWrite, ForceAccess::Write, 1),
                       force_step(kWrite, ForceAccess::Write, 0)});
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const auto base = make_random_strategy(seed, std::nullopt);
    ForcingStrategy forcing(*base, pattern);
    const SimRun run = simulate({withdraw, withdraw}, forcing);
    REQUIRE_FALSE(run.invalid);
    REQUIRE(forcing.outcome().completed == 1);
    const ThreadId a = run.performed.front().thread;  // role 0 checks first
    const auto index_of = [&](Performed p) {
      return std::find(run.performed.begin(), run.performed.end(), p) - run.performed.begin();
    };
    CHECK(index_of({1 - a, true, kWrite}) < index_of({a, false, kRead}));
  }
}

TEST_CASE("forcing: a pattern's steps access one location", "[forcing]") {
  // T0 writes 0x20 at address A; T1 reads site 0x10 at address B, then at A. The pair W→R on
  // one location completes only with T1's read of A, not with its read of B at the same site.
  const auto base = make_random_strategy(1, std::nullopt);
  ForcingStrategy forcing(*base, write_then_read());
  start_two_threads(forcing);
  perform(forcing, 0, true, kWrite, 0xA000);
  CHECK(forcing.outcome().steps_done == 1);
  const std::vector<Candidate> at_b = {{1, false, PendingKind::Read, kRead, 0xB000}};
  (void)forcing.next_thread(SchedulingPoint{1, true, PointKind::Access, 1, at_b});
  perform(forcing, 1, false, kRead, 0xB000);
  CHECK(forcing.outcome().completed == 0);
  perform(forcing, 1, false, kRead, 0xA000);
  CHECK(forcing.outcome().completed == 1);
}

TEST_CASE("forcing: a held thread is not offered to the base strategy", "[forcing]") {
  // T0 is about to write (a later step), T1 about to read (the first step): T0 is held.
  const auto base = make_random_strategy(3, std::nullopt);
  ForcingStrategy forcing(*base, lost_update_triple());
  const std::vector<Candidate> candidates = {{0, false, PendingKind::Write, kWrite, 0x1000},
                                             {1, false, PendingKind::Read, kRead, 0x1000}};
  for (std::uint64_t step = 1; step <= 20; ++step)
    CHECK(forcing.next_thread(SchedulingPoint{0, true, PointKind::Access, step, candidates}) == 1);
  CHECK(forcing.outcome().holds == 20);
  CHECK(forcing.outcome().steps_done == 0);
  CHECK(forcing.active());
}

TEST_CASE("forcing: roles bind at first match and different roles need different threads", "[forcing]") {
  const auto base = make_random_strategy(5, std::nullopt);
  ForcingStrategy forcing(*base, lost_update_triple());
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::Read), 4, 0, 2, 0x1000, kRead});  // T2: role 0
  CHECK(forcing.outcome().steps_done == 1);
  // Step 1 (W, role 1) cannot be T2's: its write does not count, the other thread's does.
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::Write), 4, 0, 2, 0x1000, kWrite});
  CHECK(forcing.outcome().steps_done == 1);
  // Immediacy works with roles too: T2 pending W is role 0's step 2, not the next one; T1 is.
  const std::vector<Candidate> candidates = {{1, false, PendingKind::Write, kWrite, 0x1000},
                                             {2, false, PendingKind::Write, kWrite, 0x1000}};
  CHECK(forcing.next_thread(SchedulingPoint{2, true, PointKind::Access, 1, candidates}) == 1);
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::Write), 4, 0, 1, 0x1000, kWrite});
  CHECK(forcing.outcome().steps_done == 2);
  // Step 2 is role 0 = T2 again, not T1.
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::Write), 4, 0, 1, 0x1000, kWrite});
  CHECK(forcing.outcome().steps_done == 2);
  CHECK(forcing.next_thread(SchedulingPoint{1, true, PointKind::Access, 2, candidates}) == 2);
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::Write), 4, 0, 2, 0x1000, kWrite});
  CHECK(forcing.outcome().completed == 1);
  CHECK(forcing.outcome().completed_step == 2);
}

TEST_CASE("forcing: a hold lasts at most hold_limit decisions", "[forcing]") {
  // Order: the read of T1 (site kOther) must come before T0's write, but T1 only ever reaches
  // its read after T0 finished: T0's write is held 7 times, then released.
  const Program program = {{{true, kWrite}, {false, kRead}},
                           {{false, kRead}, {false, kRead}, {false, kRead}, {false, kRead},
                            {false, kRead}, {false, kRead}, {false, kRead}, {false, kRead},
                            {false, kRead}, {false, kRead}, {false, kOther, true}}};
  const auto base = make_random_strategy(1, std::nullopt);
  ForcingStrategy forcing(*base, order_directive({force_step(kOther, ForceAccess::Read, 0),
                                                  force_step(kWrite, ForceAccess::Write, 1)},
                                                 7));
  const SimRun run = simulate(program, forcing);
  REQUIRE_FALSE(run.invalid);
  CHECK(forcing.outcome().holds == 7);
  CHECK(forcing.outcome().holds_dropped == 1);
  CHECK(forcing.outcome().completed == 0);
  CHECK(run.performed.size() == 13);  // the run went on to the end
}

TEST_CASE("forcing: never holds when every candidate would be held", "[forcing]") {
  // Both threads only ever write: each matches the later step (W role 1), nobody the first
  // (R at kOther). Holding both would stop the run; nobody is held, the run ends.
  const Program program = {{{true, kWrite}, {true, kWrite}}, {{true, kWrite}, {true, kWrite}}};
  const auto base = make_random_strategy(2, std::nullopt);
  ForcingStrategy forcing(*base, order_directive({force_step(kOther, ForceAccess::Read, 0),
                                                  force_step(kWrite, ForceAccess::Write, 1)}));
  const SimRun run = simulate(program, forcing);
  REQUIRE_FALSE(run.invalid);
  CHECK(run.performed.size() == 4);
  CHECK(forcing.outcome().holds == 0);
  CHECK(forcing.outcome().holds_dropped == 4);  // every decision would have held both
  CHECK(forcing.outcome().completed == 0);
}

TEST_CASE("forcing: the same seed gives the same run, other seeds other runs", "[forcing]") {
  const auto answers_for = [](std::uint64_t seed, bool pct) {
    const auto base = pct ? make_pct_strategy(seed, 3, 16) : make_random_strategy(seed, std::nullopt);
    ForcingStrategy forcing(*base, lost_update_triple());
    const Program program = {incrementers()[0], incrementers()[1], incrementers()[0]};
    return simulate(program, forcing).answers;
  };
  for (const bool pct : {false, true}) {
    CHECK(answers_for(11, pct) == answers_for(11, pct));
    bool differs = false;
    for (std::uint64_t seed = 12; seed < 30 && !differs; ++seed) differs = answers_for(seed, pct) != answers_for(11, pct);
    CHECK(differs);
  }
}

TEST_CASE("forcing: switch at entry preempts the entering thread once per function", "[forcing]") {
  constexpr std::uint64_t kFunction = 0x77;
  const auto base = make_pct_strategy(9, 1, 100);  // depth 1: PCT alone never preempts
  base->on_thread_created(0, kNoThread);
  base->on_thread_created(1, 0);
  ForcingStrategy forcing(*base, switch_at_entry_directive({kFunction}));
  const std::vector<Candidate> both = {{0, false}, {1, false}};
  const ThreadId top = forcing.next_thread(SchedulingPoint{0, true, PointKind::Access, 1, both});
  const ThreadId other = 1 - top;
  const std::uint64_t preemptions_before = forcing.preemptions();
  CHECK(forcing.active());
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::FuncEntry), 0, 0, top, kFunction, 0x5});
  CHECK(forcing.next_thread(SchedulingPoint{top, true, PointKind::Access, 2, both}) == other);
  CHECK(forcing.outcome().steps_done == 1);
  CHECK(forcing.outcome().completed == 1);
  CHECK_FALSE(forcing.active());
  // A second entry of the same function: no second switch.
  forcing.observe(TraceEvent{static_cast<std::uint8_t>(EventKind::FuncEntry), 0, 0, top, kFunction, 0x5});
  CHECK(forcing.next_thread(SchedulingPoint{top, true, PointKind::Access, 3, both}) == top);
  CHECK(forcing.outcome().steps_done == 1);
  CHECK(forcing.preemptions() - preemptions_before == 1);
}

TEST_CASE("forcing: pair and triple builders", "[forcing]") {
  const ForceDirective pair = pair_directive({0x20, true}, {0x10, false}, 9);
  CHECK(pair.kind == static_cast<std::uint32_t>(ForceKind::Order));
  CHECK(pair.count == 2);
  CHECK(pair.hold_limit == 9);
  CHECK(pair.steps[0].site == 0x20);
  CHECK(pair.steps[0].access == static_cast<std::uint8_t>(ForceAccess::Write));
  CHECK(pair.steps[0].role == 0);
  CHECK(pair.steps[1].site == 0x10);
  CHECK(pair.steps[1].access == static_cast<std::uint8_t>(ForceAccess::Read));
  CHECK(pair.steps[1].role == 1);
  const ForceDirective triple = triple_directive({kRead, false}, {kWrite, true}, {kWrite, true});
  const ForceDirective expected = lost_update_triple();
  CHECK(triple.count == 3);
  for (std::uint32_t i = 0; i < 3; ++i) {
    CHECK(triple.steps[i].site == expected.steps[i].site);
    CHECK(triple.steps[i].access == expected.steps[i].access);
    CHECK(triple.steps[i].role == expected.steps[i].role);
  }
  CHECK(valid_directive(pair));
  CHECK(valid_directive(triple));
}

TEST_CASE("forcing: an invalid directive leaves the base strategy alone", "[forcing]") {
  ForceDirective bad = lost_update_triple();
  bad.steps[1].role = kMaxForceRoles;  // out of range
  CHECK_FALSE(valid_directive(bad));
  CHECK(valid_directive(lost_update_triple()));
  CHECK_FALSE(valid_directive(ForceDirective{}));
  const auto a = make_random_strategy(4, std::nullopt);
  const auto b = make_random_strategy(4, std::nullopt);
  ForcingStrategy forcing(*a, bad);
  CHECK_FALSE(forcing.active());
  const std::vector<Candidate> three = {{0, false}, {1, false}, {2, false}};
  for (std::uint64_t step = 1; step < 30; ++step) {
    const SchedulingPoint p{0, true, PointKind::Access, step, three};
    CHECK(forcing.next_thread(p) == b->next_thread(p));
  }
}

TEST_CASE("forcing: a read step must read the write step before it", "[forcing]") {
  // dcl_registry: T0 constructs the object (W, site kWrite), later fills the same field (W, site
  // kOther); T1 reads it (site kRead). W0→R1 is the dirty read only if T1's read comes before
  // the fill: a fill in between breaks the order, which then stops, not completed.
  const auto base = make_random_strategy(1, std::nullopt);
  ForcingStrategy forcing(*base, write_then_read());
  start_two_threads(forcing);
  perform(forcing, 0, true, kWrite, 0xA000);
  perform(forcing, 0, true, kOther, 0xB000);  // another location: no harm
  REQUIRE(forcing.active());
  perform(forcing, 0, true, kOther, 0xA000);  // the fill
  CHECK_FALSE(forcing.active());
  CHECK(forcing.outcome().read_from_broken_step == 1);
  CHECK(forcing.outcome().read_from_broken_thread == 1);
  CHECK(forcing.outcome().read_from_broken_site == kOther);
  perform(forcing, 1, false, kRead, 0xA000);
  CHECK(forcing.outcome().completed == 0);
  CHECK(forcing.outcome().steps_done == 1);
}

TEST_CASE("forcing: a read after a write of its own role, or a write after a read, is not rule 7", "[forcing]") {
  const auto base = make_random_strategy(1, std::nullopt);
  // R0→W1: another write between them changes nothing the pattern says.
  ForcingStrategy forcing(*base, order_directive({force_step(kRead, ForceAccess::Read, 0),
                                                  force_step(kWrite, ForceAccess::Write, 1)}));
  start_two_threads(forcing);
  perform(forcing, 0, false, kRead, 0xA000);
  perform(forcing, 0, true, kOther, 0xA000);
  CHECK(forcing.outcome().read_from_broken_step == 0);
  perform(forcing, 1, true, kWrite, 0xA000);
  CHECK(forcing.outcome().completed == 1);
}

TEST_CASE("forcing: held at the location, the partner may move on elsewhere first", "[forcing]") {
  // T0 has written (step 0) and is about to access another location; T1 is about to read. Held
  // everywhere (rule 3b) T0 is not offered; with hold_at_location it is, until it is about to
  // touch the pattern's location again.
  ForceDirective pattern = write_then_read();
  const auto offered_t0 = [&](std::uint64_t t0_address) {
    const auto base = make_random_strategy(7, std::nullopt);
    ForcingStrategy forcing(*base, pattern);
    start_two_threads(forcing);
    perform(forcing, 0, true, kWrite, 0xA000);
    // T1 is not at its read yet (another site), so immediacy does not decide.
    const std::vector<Candidate> candidates = {{0, false, PendingKind::Write, kOther, t0_address},
                                               {1, false, PendingKind::Read, kOther, 0xC000}};
    bool t0 = false;
    for (std::uint64_t step = 1; step <= 40 && !t0; ++step) {
      t0 = forcing.next_thread(SchedulingPoint{1, true, PointKind::Access, step, candidates}) == 0;
    }
    return t0;
  };
  CHECK_FALSE(offered_t0(0xB000));
  pattern.hold_at_location = 1;
  CHECK(offered_t0(0xB000));
  CHECK_FALSE(offered_t0(0xA000));
}

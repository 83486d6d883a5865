// Forced replay (docs/forcing.md): the directive for a bug's true access pattern, built from the
// sites of a real run's access pairs, reproduces the failure in (nearly) every forced run while
// plain runs fail far less often; forcing a wrong order is refuted; the saved schedule of a
// forced failing run replays bit for bit with `ctrlsched replay --schedule`.
//
// The driver API (confirm.h) is called in-process here; it starts the real test processes under
// the real shim through the WorkerPool, as `ctrlsched` does.
#include <catch2/catch.hpp>

#include <set>

#include "localize/confirm.h"
#include "ctrlsched/access_pairs.h"
#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"
#include "ctrlsched/localize/trace_file.h"
#include "e2e.h"
#include "report/symbolizer.h"

using namespace e2e;
namespace drv = ctrlsched::driver;
using ctrlsched::ForceAccess;
using ctrlsched::force_step;
using ctrlsched::order_directive;

namespace {

constexpr std::uint64_t kBaselineSeeds = 100;

struct Harness {
  std::string name;
  drv::LaunchTarget target;
  drv::Symbolizer symbolizer;
  drv::ClassifyContext context;

  explicit Harness(const std::string& example_name, const std::string& kind = "example_inst")
      : name(binary(kind, example_name)) {
    target.path = name;
    target.argv = {name};
    target.shim_path = drv::locate_shim();
    context.timeout_seconds = 20;
    context.symbolize = symbolizer.function();
  }

  std::vector<drv::DirectedRun> run(const ctrlsched::ForceDirective& directive, std::uint64_t seeds,
                                    std::uint32_t collectors = 0, const drv::DirectedRecordFn& on_record = {},
                                    std::uint64_t first_seed = 0) {
    drv::DirectedBatch batch;
    batch.base.seed = first_seed;
    batch.seeds = seeds;
    batch.directive = directive;
    batch.collectors = collectors;
    batch.jobs = 2;
    batch.timeout_seconds = 20;
    return drv::run_directed(target, batch, context, name, on_record);
  }
};

// A site of one access pair side: the raw site and its symbolized "R file.c:NN (fn)" text.
struct PairSites {
  std::uint64_t head_site = 0, tail_site = 0;
  std::string head, tail;
};

// Every access pair of one run of `seed`, raw sites next to their symbolized text (same order).
std::vector<PairSites> access_pairs_of_run(Harness& h, std::uint64_t seed) {
  std::vector<PairSites> pairs;
  h.run(ctrlsched::ForceDirective{}, 1, ctrlsched::kCollectAccessPairs,
        [&](std::uint64_t, const ctrlsched::RunRecord& record, const drv::RunResult& result) {
          const auto* summary = reinterpret_cast<const ctrlsched::AccessPairSummary*>(
              reinterpret_cast<const std::uint8_t*>(&record) + ctrlsched::kSummaryOffset);
          REQUIRE(result.access_pairs.has_value());
          REQUIRE(result.access_pairs->pairs.size() == summary->used);
          for (std::uint32_t i = 0; i < summary->used; ++i) {
            pairs.push_back({summary->pairs[i].head_site, summary->pairs[i].tail_site,
                             result.access_pairs->pairs[i].head, result.access_pairs->pairs[i].tail});
          }
        },
        seed);
  return pairs;
}

// Whether a symbolized side ("W main (order_violation.c:38)") is `kind` ("R"/"W") at file.c:NN.
bool side_is(const std::string& side, const std::string& kind, const std::string& file_line) {
  if (!side.starts_with(kind + " ")) return false;
  const std::size_t at = side.find(file_line + ")");
  return at != std::string::npos && at > 0 && (side[at - 1] == '(' || side[at - 1] == '/');
}

// The first pair with head `head_kind` at `head_at` and tail `tail_kind` at `tail_at`.
std::optional<PairSites> find_pair(const std::vector<PairSites>& pairs, const std::string& head_kind,
                                   const std::string& head_at, const std::string& tail_kind, const std::string& tail_at) {
  for (const PairSites& p : pairs)
    if (side_is(p.head, head_kind, head_at) && side_is(p.tail, tail_kind, tail_at)) return p;
  return std::nullopt;
}

std::string describe(const std::vector<PairSites>& pairs) {
  std::string text;
  for (const PairSites& p : pairs) text += p.head + " -> " + p.tail + "\n";
  return text;
}

struct Baseline {
  drv::FailureIdentity original;
  double rate = 0;
  std::uint64_t failing_seed = 0;
  std::uint64_t passing_seed = 0;
  bool has_failure = false, has_pass = false;
};

Baseline baseline_of(Harness& h) {
  Baseline b;
  const auto runs = h.run(ctrlsched::ForceDirective{}, kBaselineSeeds);
  for (const drv::DirectedRun& r : runs) {
    CHECK(r.force.steps_done == 0);
    if (r.result.failed() && !b.has_failure) {
      b.original = drv::failure_identity(r.result);
      b.failing_seed = r.result.seed;
      b.has_failure = true;
    }
    if (!r.result.failed() && !b.has_pass) {
      b.passing_seed = r.result.seed;
      b.has_pass = true;
    }
  }
  std::uint64_t same = 0;
  for (const drv::DirectedRun& r : runs) same += b.has_failure && drv::same_failure(r.result, b.original);
  b.rate = static_cast<double>(same) / static_cast<double>(kBaselineSeeds);
  return b;
}

drv::ConfirmRequest request_for(const ctrlsched::ForceDirective& directive, const Baseline& b, const TempDir& dir,
                                const std::string& target) {
  drv::ConfirmRequest request;
  request.batch.base.seed = 1000;  // seeds the baseline did not use
  request.batch.seeds = 20;
  request.batch.directive = directive;
  request.batch.jobs = 2;
  request.batch.timeout_seconds = 20;
  request.original = b.original;
  request.baseline_rate = b.rate;
  request.test = drv::TestCommand{target, {}};
  request.save_dir = dir / "forced";
  return request;
}

// The saved forced schedule replays with the plain replay strategy: same failure, same hash.
void check_replay(const TempDir& dir, const drv::ConfirmationResult& c, const std::string& target,
                  const std::string& expected_message_part) {
  REQUIRE_FALSE(c.schedule_path.empty());
  CHECK(contains(c.replay_command, "ctrlsched replay --schedule " + c.schedule_path + " " + target));
  const auto saved = read_schedule_file(c.schedule_path);
  REQUIRE(saved.has_value());
  const Process replay = run_replay(dir, {"--schedule", c.schedule_path}, target);
  INFO(replay.describe());
  CHECK(replay.exit_code == 1);
  CHECK(replay_schedule_hash(replay.out) == saved->hash);
  CHECK(contains(replay.out, "replay matched schedule " + saved->hash));
  CHECK(contains(replay.out, expected_message_part));
}

}  // namespace

TEST_CASE("forcing the order violation's read-before-publish reproduces it; the safe order is refuted",
          "[forcing]") {
  Harness h("order_violation");
  const fs::path source = examples_source_dir() / "order_violation.c";
  const int use_line = line_starting_with(source, "return (void *)(intptr_t)g_config->port;");
  const int publish_line = line_starting_with(source, "g_config = &config;");
  REQUIRE(use_line > 0);
  REQUIRE(publish_line > 0);

  const Baseline b = baseline_of(h);
  REQUIRE(b.has_failure);
  REQUIRE(b.has_pass);
  CHECK(b.original.kind == drv::OutcomeKind::Signal);
  INFO("baseline " << b.rate << " signature " << b.original.signature);

  // A passing run publishes first: its pair W g_config (main) -> R g_config (worker).
  const auto pairs = access_pairs_of_run(h, b.passing_seed);
  INFO(describe(pairs));
  const auto publish_then_use = find_pair(pairs, "W", "order_violation.c:" + std::to_string(publish_line), "R",
                                          "order_violation.c:" + std::to_string(use_line));
  REQUIRE(publish_then_use.has_value());
  const std::uint64_t write_site = publish_then_use->head_site, read_site = publish_then_use->tail_site;
  CHECK(write_site != read_site);

  TempDir dir;
  SECTION("true pattern: the worker's read before main's publication") {
    const auto directive = ctrlsched::pair_directive({read_site, false}, {write_site, true});
    const drv::ConfirmationResult c = drv::confirm(h.target, request_for(directive, b, dir, h.name), h.context, h.name);
    INFO(drv::render_confirmation(1, c));
    CHECK(c.forced_runs == 20);
    CHECK(c.failed >= 18);
    CHECK(c.failed_other == 0);
    // The worker may crash on its NULL pointer before main gets to its store (main was not yet
    // at that access when the read happened): failed, but the order not completed.
    CHECK(c.completed >= 1);
    CHECK_FALSE(c.refuted);
    CHECK(static_cast<double>(c.failed) / 20.0 > b.rate + 0.3);
    CHECK(drv::render_confirmation(1, c).starts_with("forcing #1 fails " + std::to_string(c.failed) + "/20 (baseline "));
    const auto json = drv::confirmation_json(c);
    CHECK(json.at("forced_runs") == 20);
    CHECK(json.at("failed") == c.failed);
    CHECK(json.at("refuted") == false);
    CHECK(json.at("replay") == c.replay_command);
    check_replay(dir, c, h.name, "SIGSEGV");
  }
  SECTION("wrong pattern: publication before the read (the correct order)") {
    const auto directive = order_directive(
        {force_step(write_site, ForceAccess::Write, 0), force_step(read_site, ForceAccess::Read, 1)});
    const drv::ConfirmationResult c = drv::confirm(h.target, request_for(directive, b, dir, h.name), h.context, h.name);
    INFO(drv::render_confirmation(2, c));
    CHECK(c.forced_runs == 20);
    CHECK(c.failed == 0);
    CHECK(c.failed_other == 0);
    CHECK(c.completed == 20);
    CHECK(c.refuted);
    CHECK_FALSE(c.failing_seed.has_value());
    CHECK(c.replay_command.empty());
    CHECK(drv::render_confirmation(2, c) == "forcing #2 refuted: forcing never fails (0/20, order achieved in 20)");
    CHECK(drv::confirmation_json(c).at("refuted") == true);
  }
}

TEST_CASE("forcing the lost update's read-write-write triple reproduces it",
          "[forcing]") {
  Harness h("lost_update");
  const fs::path source = examples_source_dir() / "lost_update.c";
  const int increment_line = line_starting_with(source, "counter++;");
  REQUIRE(increment_line > 0);
  const Baseline b = baseline_of(h);
  REQUIRE(b.has_failure);
  REQUIRE(b.has_pass);
  CHECK(b.original.kind == drv::OutcomeKind::Assertion);
  INFO("baseline " << b.rate << " signature " << b.original.signature);

  // Any run has the pair W counter++ -> R counter++ (one thread's store read by the other).
  const std::string at = "lost_update.c:" + std::to_string(increment_line);
  const auto pairs = access_pairs_of_run(h, b.passing_seed);
  INFO(describe(pairs));
  const auto write_then_read = find_pair(pairs, "W", at, "R", at);
  REQUIRE(write_then_read.has_value());
  const std::uint64_t write_site = write_then_read->head_site, read_site = write_then_read->tail_site;

  TempDir dir;
  SECTION("true pattern: R(A) W(B) W(A), the unserializable triple") {
    const auto directive =
        ctrlsched::triple_directive({read_site, false}, {write_site, true}, {write_site, true});
    const drv::ConfirmationResult c = drv::confirm(h.target, request_for(directive, b, dir, h.name), h.context, h.name);
    INFO(drv::render_confirmation(1, c));
    CHECK(c.failed >= 18);
    CHECK(c.completed == 20);
    CHECK(static_cast<double>(c.failed) / 20.0 > b.rate);
    check_replay(dir, c, h.name, "lost update");
  }
  SECTION("true pattern over PCT (calibrated; its leases resume once the order is done)") {
    const auto directive = order_directive({force_step(read_site, ForceAccess::Read, 0),
                                            force_step(write_site, ForceAccess::Write, 1),
                                            force_step(write_site, ForceAccess::Write, 0)});
    drv::ConfirmRequest request = request_for(directive, b, dir, h.name);
    request.batch.base.strategy = ctrlsched::StrategyKind::Pct;
    const drv::ConfirmationResult c = drv::confirm(h.target, request, h.context, h.name);
    INFO(drv::render_confirmation(1, c));
    CHECK(c.failed >= 18);
    CHECK(c.completed == 20);
    check_replay(dir, c, h.name, "lost update");
  }
  SECTION("a pattern on a site no access has: held only while others can run, never completed, runs as usual") {
    const auto directive = order_directive({force_step(read_site, ForceAccess::Read, 0),
                                            force_step(read_site + 1, ForceAccess::Write, 1)});
    const auto runs = h.run(directive, 20);
    for (const drv::DirectedRun& r : runs) {
      INFO("seed " << r.result.seed);
      CHECK(r.force.steps_done == 1);  // the read happens; the write at a made-up site never does
      // The reader waits for a partner that never comes (rule 3b), but only while another
      // thread can run: bounded, and the run goes on.
      CHECK(r.force.holds <= ctrlsched::kDefaultHoldLimit);
      CHECK(r.force.completed == 0);
      CHECK((r.result.kind == drv::OutcomeKind::Pass || drv::same_failure(r.result, b.original)));
    }
  }
}

TEST_CASE("forced runs are deterministic per seed and differ between seeds", "[forcing]") {
  Harness h("lost_update");
  const auto pairs = access_pairs_of_run(h, 0);
  REQUIRE_FALSE(pairs.empty());
  const auto directive = order_directive({force_step(pairs[0].head_site, ForceAccess::Any, 0),
                                          force_step(pairs[0].tail_site, ForceAccess::Any, 1)});
  const auto first = h.run(directive, 12);
  const auto second = h.run(directive, 12);
  std::set<std::uint64_t> hashes;
  for (std::size_t i = 0; i < first.size(); ++i) {
    INFO("seed " << first[i].result.seed);
    CHECK(first[i].result.schedule_hash == second[i].result.schedule_hash);
    CHECK(first[i].result.kind == second[i].result.kind);
    CHECK(first[i].force.steps_done == second[i].force.steps_done);
    CHECK(first[i].force.holds == second[i].force.holds);
    hashes.insert(first[i].result.schedule_hash);
  }
  CHECK(hashes.size() > 1);
}

TEST_CASE("a woken waiter is held until its turn: two waiters of one broadcast wake in the forced order",
          "[forcing]") {
  // cond_broadcast: three waiters wait once on `go`, main broadcasts once. Which woken waiter runs
  // first is the base strategy's choice unless the forcing can hold a woken waiter, which it can
  // because a blocked waiter stays pending its `woken` (shim/models/cond.cc).
  Harness h("cond_broadcast", "program");
  const auto woken = static_cast<std::uint8_t>(ctrlsched::SyncOp::Woken);
  for (const auto& [first, second] : {std::pair{3u, 1u}, std::pair{1u, 3u}}) {
    ctrlsched::ForceDirective d =
        order_directive({ctrlsched::force_sync_step(0, woken, 0), ctrlsched::force_sync_step(0, woken, 1)});
    REQUIRE(ctrlsched::bind_role(d, 0, first));
    REQUIRE(ctrlsched::bind_role(d, 1, second));
    const auto runs = h.run(d, 20);
    int completed = 0;
    for (const auto& r : runs) {
      INFO("seed " << r.result.seed);
      CHECK(r.result.kind == drv::OutcomeKind::Pass);
      completed += static_cast<int>(r.force.completed);
    }
    INFO("T" << first << " woken before T" << second);
    CHECK(completed == 20);
  }
}

TEST_CASE("switch at entry: the thread entering a function is preempted once", "[forcing]") {
  Harness h("check_then_act");
  // The function site of `withdraw`: the address of the first function entry of T1 in a trace.
  TempDir dir;
  const fs::path file = dir / "t.cstrace";
  const Process traced = run({ctrlsched_path(), "trace", "--seed", "0", "--output", file.string(), "--", h.name}, 60);
  INFO(traced.describe());
  const auto trace = ctrlsched::localize::read_trace_file(file.string());
  REQUIRE(trace.has_value());
  std::uint64_t withdraw_site = 0;
  for (const ctrlsched::TraceEvent& e : trace->events) {
    if (e.kind == static_cast<std::uint8_t>(ctrlsched::EventKind::FuncEntry) && e.thread == 1) {
      withdraw_site = e.address;
      break;
    }
  }
  REQUIRE(withdraw_site != 0);

  const auto forced = h.run(ctrlsched::switch_at_entry_directive({withdraw_site}), 20);
  const auto plain = h.run(ctrlsched::ForceDirective{}, 20);
  std::uint64_t differ = 0;
  for (std::size_t i = 0; i < forced.size(); ++i) {
    INFO("seed " << forced[i].result.seed);
    // When the first worker enters withdraw, main (or the other worker) can always run.
    CHECK(forced[i].force.steps_done == 1);
    CHECK(forced[i].force.completed == 1);
    CHECK(plain[i].force.steps_done == 0);
    differ += forced[i].result.schedule_hash != plain[i].result.schedule_hash;
  }
  CHECK(differ > 0);
  // A switch at a function no thread enters changes nothing: same schedules as plain runs (the
  // random base gives no leases, so keeping every point decided changes no log either).
  const auto unused = h.run(ctrlsched::switch_at_entry_directive({withdraw_site + 1}), 20);
  for (std::size_t i = 0; i < unused.size(); ++i) {
    CHECK(unused[i].force.steps_done == 0);
    CHECK(unused[i].result.schedule_hash == plain[i].result.schedule_hash);
  }
}

// ConSeq prediction on a real instrumented example: from a PASSING run's trace of
// check_then_act (two withdrawals of 60 from a balance of 100, the check and the subtraction in
// separate critical sections), the static failure-site scan finds `withdraw` (it calls
// __assert_fail), and the harmful order — T2's check reading the balance before T1's
// subtraction, so both see 100 and the balance goes negative — is among the predicted orders.
#include <catch2/catch.hpp>

#include <algorithm>

#include "ctrlsched/localize/trace_file.h"
#include "e2e.h"
#include "localize/failure_sites.h"
#include "localize/predict.h"

using namespace e2e;
namespace loc = ctrlsched::localize;
namespace drv = ctrlsched::driver;

TEST_CASE("check_then_act: static failure sites are the functions that call __assert_fail", "[conseq]") {
  std::string error;
  auto functions = drv::find_failure_site_functions(binary("example_inst", "check_then_act"), {}, &error);
  REQUIRE(functions);
  std::vector<std::string> names;
  for (const auto& f : *functions) names.push_back(f.name);
  INFO(error);
  CHECK(std::ranges::count(names, "withdraw") == 1);
  CHECK(std::ranges::count(names, "main") == 1);  // main asserts the final balance
  for (const auto& f : *functions)
    if (f.name == "withdraw") CHECK(f.calls == std::vector<std::string>{"__assert_fail"});
  // A user-named failure function: main calls pthread_join.
  auto with_join = drv::find_failure_site_functions(binary("example_inst", "check_then_act"), {"pthread_join"});
  REQUIRE(with_join);
  for (const auto& f : *with_join)
    if (f.name == "main") CHECK(f.calls == std::vector<std::string>{"__assert_fail", "pthread_join"});
}

TEST_CASE("check_then_act: a passing run predicts the harmful early read", "[conseq]") {
  const std::string target = binary("example_inst", "check_then_act");
  TempDir dir;
  // The first passing seed (seed 1 passes today; the loop keeps the test honest if that changes).
  std::optional<loc::Trace> trace;
  std::uint64_t seed = 0;
  for (seed = 1; seed <= 20 && !trace; ++seed) {
    const fs::path file = dir / ("t" + std::to_string(seed) + ".cstrace");
    // pct: the test was written against its seeds (the default before the portfolio).
    Process p = run({ctrlsched_path(), "trace", "--seed", std::to_string(seed), "--strategy", "pct", "--output", file.string(), "--",
                     target},
                    60);
    if (p.exit_code != 0) continue;
    auto read = loc::read_trace_file(file.string());
    REQUIRE(read);
    trace = std::move(*read);
  }
  REQUIRE(trace);
  INFO("passing seed " << seed - 1);
  drv::PredictSettings settings;
  drv::Prediction p = drv::predict_from_passing_trace(*trace, target, settings);
  INFO(drv::render_prediction(p));
  CHECK(p.problem.empty());
  CHECK_FALSE(p.run_failed);
  CHECK(p.critical_reads > 0);
  // T1 withdraws first (100 → 40), T2's check then reads 40 and gives up. The harmful order:
  // T2's check (line 26) before T1's subtraction (line 30), reading 100.
  const std::string harmful = "R T2 check_then_act.c:26 withdraw → W T1 check_then_act.c:30 withdraw  balance "
                              "(read 40, could read 100)";
  auto it = std::ranges::find_if(p.orders, [&](const drv::PredictedOrder& o) { return o.line == harmful; });
  REQUIRE(it != p.orders.end());
  const auto rank = it - p.orders.begin() + 1;
  CHECK(rank == 1);
  CHECK(it->candidate.kind == loc::OrderKind::EarlyRead);
  CHECK(it->directive.kind == static_cast<std::uint32_t>(ctrlsched::ForceKind::Order));
  CHECK(it->directive.steps[0].access == static_cast<std::uint8_t>(ctrlsched::ForceAccess::Read));
  CHECK(it->directive.steps[1].access == static_cast<std::uint8_t>(ctrlsched::ForceAccess::Write));
  nlohmann::json j = drv::prediction_json(p);
  CHECK(j["orders"][rank - 1]["kind"] == "early-read");
  CHECK(j["orders"][rank - 1]["value_possible"] == 100);
}

TEST_CASE("check_then_act: predict_from_run traces a passing and a failing seed in-process", "[conseq]") {
  drv::LaunchTarget target;
  target.path = binary("example_inst", "check_then_act");
  target.argv = {target.path};
  target.shim_path = drv::locate_shim();
  drv::PredictSettings settings;
  std::optional<drv::Prediction> passing, failing;
  for (std::uint64_t seed = 1; seed <= 40 && !(passing && failing); ++seed) {
    ctrlsched::RunSpec spec;
    spec.seed = seed;
    drv::Prediction p = drv::predict_from_run(target, spec, 30, "check_then_act", settings);
    (p.run_failed ? failing : passing) = std::move(p);
  }
  REQUIRE(passing);
  REQUIRE(failing);
  INFO(drv::render_prediction(*passing));
  INFO(drv::render_prediction(*failing));
  CHECK(passing->selection == "failure-site functions: main, withdraw");
  REQUIRE_FALSE(passing->orders.empty());
  CHECK(passing->orders[0].line.find("R T") == 0);  // the early read of a check ranks first
  CHECK(passing->orders[0].line.find("(read 40, could read 100)") != std::string::npos);
  CHECK(failing->selection.rfind("failing thread T", 0) == 0);
  // The failing thread's shared reads: `amount`, the check (line 26) and the subtraction's read
  // (line 30); the assertion reuses the subtracted value from a register, so it reads nothing.
  CHECK(failing->critical_reads == 3);
  REQUIRE_FALSE(failing->orders.empty());
  CHECK(failing->orders[0].line.find("balance") != std::string::npos);
}

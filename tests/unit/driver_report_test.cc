// The reports: text summary layout and the JSON schema (ctrlsched-run/1), both pure functions of
// a Report, plus the tail of captured output.
#include <catch2/catch.hpp>

#include "report/json_report.h"
#include "report/summary.h"
#include "runs/capture_file.h"
#include "runs/outcome.h"

#include <signal.h>

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

Report sample_report() {
  Report report;
  report.header.seeds_requested = 3;
  report.header.spec.strategy = StrategyKind::Pct;
  report.header.spec.pct_depth = 3;
  report.header.spec.pct_steps = 412;
  report.header.pct_steps_calibrated = true;
  report.header.elapsed_seconds = 1.5;
  report.header.jobs = 2;
  report.header.test = TestCommand{"./bank_test", {"--n", "3"}};
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    RunResult r;
    r.seed = seed;
    r.schedule_hash = 0x9f3a2b1c0d4e5f67 + seed;
    r.handle = std::to_string(seed) + ":pct:d3:k412@" + format_hash(r.schedule_hash);
    r.steps = 400 + seed;
    r.decisions = 30;
    r.preemptions = 2;
    r.threads = 3;
    if (seed == 1) {
      r.kind = OutcomeKind::Assertion;
      FailureDetails f;
      f.kind = OutcomeKind::Assertion;
      f.message = "assertion `total == 300` failed (bank.c:41 in main)";
      f.file = "/src/bank.c";
      f.line = 41;
      f.function = "main";
      f.stack = {"main (bank.c:41)"};
      f.signature = "assertion|/src/bank.c:41|main";
      r.failure = f;
      r.output_tail = "bank_test: bank.c:41: main: Assertion `total == 300' failed.";
    }
    report.runs.push_back(r);
  }
  finish_report(report);
  return report;
}

}  // namespace

TEST_CASE("the text summary: header, failure group with replay command and output, counts") {
  const std::string text = render_summary(sample_report(), false);
  CHECK(text ==
        "ctrlsched: 3 seeds · pct(d=3, k=412) · 1.50 s · 2 seeds/s · -j 2\n"
        "FAIL  1 seed (33.3%) — assertion `total == 300` failed (bank.c:41 in main), first at seed 1\n"
        "      replay:  ctrlsched replay 1:pct:d3:k412@9f3a2b1c0d4e5f68 ./bank_test --n 3\n"
        "      at main (bank.c:41)\n"
        "      | bank_test: bank.c:41: main: Assertion `total == 300' failed.\n"
        "PASS  2 seeds\n"
        "      assertion: 1 seed\n");
}

TEST_CASE("--quiet keeps only the failure groups") {
  const std::string text = render_summary(sample_report(), true);
  CHECK(text.starts_with("FAIL  1 seed"));
  CHECK(text.find("PASS") == std::string::npos);
  CHECK(text.find("seeds/s") == std::string::npos);
  Report passing = sample_report();
  passing.runs.erase(passing.runs.begin() + 1);
  finish_report(passing);
  CHECK(render_summary(passing, true).empty());
}

TEST_CASE("the JSON report follows schema ctrlsched-run/1") {
  const auto j = report_json(sample_report());
  CHECK(j["schema"] == "ctrlsched-run/1");
  CHECK(j["summary"]["seeds"] == 3);
  CHECK(j["summary"]["failures"] == 1);
  CHECK(j["summary"]["strategy"] == "pct");
  CHECK(j["summary"]["depth"] == 3);
  CHECK(j["summary"]["pct_steps"] == 412);
  CHECK(j["summary"]["preemption_bound"].is_null());
  CHECK(j["summary"]["target"] == "./bank_test");
  CHECK(j["summary"]["args"] == nlohmann::json::array({"--n", "3"}));
  CHECK(j["outcomes"]["pass"] == 2);
  CHECK(j["outcomes"]["assertion"] == 1);
  CHECK(j["outcomes"]["deadlock"] == 0);
  REQUIRE(j["groups"].size() == 1);
  CHECK(j["groups"][0]["kind"] == "assertion");
  CHECK(j["groups"][0]["file"] == "/src/bank.c");
  CHECK(j["groups"][0]["line"] == 41);
  CHECK(j["groups"][0]["function"] == "main");
  CHECK(j["groups"][0]["count"] == 1);
  CHECK(j["groups"][0]["first_seed"] == 1);
  CHECK(j["groups"][0]["replay"] == "ctrlsched replay 1:pct:d3:k412@9f3a2b1c0d4e5f68 ./bank_test --n 3");
  REQUIRE(j["runs"].size() == 3);
  CHECK(j["runs"][0]["outcome"] == "pass");
  CHECK_FALSE(j["runs"][0].contains("failure"));
  CHECK(j["runs"][1]["outcome"] == "fail");
  CHECK(j["runs"][1]["failure"]["stack"] == nlohmann::json::array({"main (bank.c:41)"}));
  CHECK(j["runs"][1]["schedule_hash"] == "9f3a2b1c0d4e5f68");
  CHECK(j["runs"][2]["steps"] == 402);
  CHECK_FALSE(j["runs"][2].contains("elapsed_ms"));
}

TEST_CASE("JSON is identical apart from elapsed_s, and survives invalid UTF-8") {
  Report a = sample_report();
  Report b = sample_report();
  b.header.elapsed_seconds = 99;
  b.header.jobs = 7;
  auto ja = report_json(a), jb = report_json(b);
  ja["summary"].erase("elapsed_s");
  jb["summary"].erase("elapsed_s");
  CHECK(ja == jb);
  a.runs[1].output_tail = "bad \xff byte";
  finish_report(a);
  CHECK_NOTHROW(render_json(a));
}

TEST_CASE("output tails keep the last lines, cut at 2 KiB, and defuse control characters") {
  CHECK(output_tail("a\nb\nc\n", 2, 100) == "b\nc");
  CHECK(output_tail("abc\n\n", 20, 100) == "abc");
  CHECK(output_tail("\x1b[31mred\x1b[0m\ttab") == "?[31mred?[0m\ttab");
  const std::string long_line(3000, 'x');
  const std::string tail = output_tail(long_line);
  CHECK(tail.starts_with("…"));
  CHECK(tail.size() == std::string("…").size() + kTailBytes);
  std::string many;
  for (int i = 0; i < 50; ++i) many += "line " + std::to_string(i) + "\n";
  const std::string last = output_tail(many);
  CHECK(last.starts_with("line 30\n"));
  CHECK(last.ends_with("line 49"));
}

TEST_CASE("an interrupted run says so in its header and its JSON, with the seeds that finished") {
  Report report = sample_report();
  report.runs.erase(report.runs.begin());  // seed 0 was in flight when the signal came
  report.header.stopped_early = true;
  report.header.interrupted = true;
  report.header.interrupt_signal = SIGINT;
  finish_report(report);
  const std::string text = render_summary(report, false);
  CHECK(text.starts_with("ctrlsched: 2 of 3 seeds finished (INTERRUPTED by SIGINT) · pct(d=3, k=412)"));
  CHECK(text.find("FAIL  1 seed (50.0%)") != std::string::npos);
  const auto j = report_json(report);
  CHECK(j["summary"]["seeds"] == 2);
  CHECK(j["summary"]["stopped_early"] == true);
  CHECK(j["summary"]["interrupted"] == true);
  CHECK(j["runs"][0]["seed"] == 1);
  CHECK(j["runs"][1]["seed"] == 2);
  CHECK(report_json(sample_report())["summary"]["interrupted"] == false);
  CHECK(signal_name(SIGTERM) == "SIGTERM");
  CHECK(signal_name(SIGHUP) == "SIGHUP");
}

TEST_CASE("a run the watchdog released a thread in is reported as not reproducible bit for bit") {
  Report report = sample_report();
  report.runs[2].note = "the watchdog released T1, blocked outside the model in system call 0";
  finish_report(report);
  CHECK(render_summary(report, false).find(
            "NOTE  1 seed with a note; first at seed 2: the watchdog released T1") != std::string::npos);
}

// The SARIF and JUnit XML reports (sarif_report.h, junit_report.h) and the traced steps behind
// SARIF's codeFlows (thread_flow.h): pure functions, checked on values built by hand. The real
// validators (sarif-multitool, an XML parser) run in the e2e test tests/e2e/reports.
#include <catch2/catch.hpp>

#include <map>

#include "driver_test_support.h"
#include "report/junit_report.h"
#include "report/sarif_report.h"
#include "report/thread_flow.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::event;
using ctrlsched::driver::testing::TableSymbolizer;

namespace {

Report two_group_report() {
  Report report;
  report.header.seeds_requested = 4;
  report.header.spec.strategy = StrategyKind::Random;
  report.header.test = TestCommand{"./bank test", {"--n", "3"}};
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    RunResult r;
    r.seed = seed;
    r.schedule_hash = 0x1000 + seed;
    r.handle = std::to_string(seed) + ":random@" + format_hash(r.schedule_hash);
    if (seed == 1 || seed == 3) {
      FailureDetails f;
      f.kind = r.kind = seed == 1 ? OutcomeKind::Assertion : OutcomeKind::Deadlock;
      f.message = seed == 1 ? "assertion `a < b && c` failed (bank.c:41 in main)" : "deadlock: T1, T2 blocked";
      if (seed == 1) {
        f.file = "/src/my bank.c";
        f.line = 41;
        f.function = "main";
      }
      f.details = {"T1 waits for mutex 0x1 held by T2"};
      f.signature = seed == 1 ? "assertion|bank.c:41" : "deadlock|T1,T2";
      r.failure = f;
      r.output_tail = "printed <script>alert(1)</script> & \x01 bad \xff byte";
    }
    report.runs.push_back(r);
  }
  finish_report(report);
  return report;
}

const TableSymbolizer::Table kSarifSites = {
    {0x100, {"main", "/src/t.c", 10}}, {0x200, {"worker", "/src/t.c", 20}}, {0x210, {"worker", "/src/t.c", 22}}};

localize::Trace thread_flow_trace() {
  localize::Trace trace;
  trace.handle = "3:random@abc";
  trace.modules.push_back({"/bin/t", 0, 0x10000});
  trace.events = {
      event(EventKind::Acquire, 0, 0x101),  event(EventKind::ThreadCreate, 0, 0x101, 1),
      event(EventKind::Switch, 0, 0, 1),    event(EventKind::ThreadStart, 1, 0),
      event(EventKind::Read, 1, 0x201),     event(EventKind::Write, 1, 0x201),
      event(EventKind::FuncEntry, 1, 0x211), event(EventKind::Write, 1, 0x211),
      event(EventKind::Switch, 1, 0, 0),    event(EventKind::Read, 0, 0x999),
  };
  return trace;
}

}  // namespace

TEST_CASE("thread_flow: one step per thread and line, switches flagged, unknown sites by module", "[sarif]") {
  TableSymbolizer symbolizer(kSarifSites);
  const ThreadFlow flow = thread_flow(thread_flow_trace(), symbolizer, 100);
  REQUIRE(flow.steps.size() == 4);
  CHECK(flow.handle == "3:random@abc");
  CHECK(flow.steps[0].thread == 0);
  CHECK(flow.steps[0].what == "acquire, thread-create");
  CHECK(flow.steps[0].line == 10);
  CHECK_FALSE(flow.steps[0].switched_to);
  CHECK(flow.steps[1].thread == 1);
  CHECK(flow.steps[1].what == "read, write");
  CHECK(flow.steps[1].switched_to);
  CHECK(flow.steps[2].line == 22);
  CHECK(flow.steps[3].thread == 0);
  CHECK(flow.steps[3].file.empty());
  CHECK(flow.steps[3].module == "/bin/t+0x999");
  CHECK(flow.steps[3].switched_to);
  CHECK_FALSE(flow.truncated);

  const ThreadFlow cut = thread_flow(thread_flow_trace(), symbolizer, 2);
  CHECK(cut.steps.size() == 2);
  CHECK(cut.truncated);
}

TEST_CASE("SARIF: one result per group with rule, location, codeFlow per thread and confirmed pattern", "[sarif]") {
  const Report report = two_group_report();
  TableSymbolizer symbolizer(kSarifSites);
  std::vector<std::optional<ThreadFlow>> flows{thread_flow(thread_flow_trace(), symbolizer, 100), std::nullopt};
  const nlohmann::ordered_json localization = nlohmann::ordered_json::parse(R"({
    "falcon": {"patterns": [
      {"rank": 1, "kind": "R1-W2-R1", "location": "balance", "confirmation": {"verdict": "confirmed"},
       "accesses": [{"access": "R", "role": 1, "site": "bank.c:20 withdraw", "thread": 1},
                    {"access": "W", "role": 2, "site": "bank.c:22 withdraw", "thread": 2},
                    {"access": "R", "role": 1, "site": "?", "thread": 1}]},
      {"rank": 2, "kind": "W1-W2", "location": "x", "confirmation": {"verdict": "refuted"},
       "accesses": [{"access": "W", "role": 1, "site": "bank.c:30 f", "thread": 1}]}]}})");
  const nlohmann::ordered_json sarif = sarif_json(report, flows, localization);
  CHECK(sarif["version"] == "2.1.0");
  const auto& run = sarif["runs"][0];
  const auto& rules = run["tool"]["driver"]["rules"];
  CHECK(rules.size() == 8);
  const auto& results = run["results"];
  REQUIRE(results.size() == 2);

  const auto& assertion = results[0];
  CHECK(assertion["ruleId"] == "ctrlsched/assertion");
  CHECK(rules[assertion["ruleIndex"].get<std::size_t>()]["id"] == "ctrlsched/assertion");
  const auto& site = assertion["locations"][0]["physicalLocation"];
  CHECK(site["artifactLocation"]["uri"] == "file:///src/my%20bank.c");
  CHECK(site["region"]["startLine"] == 41);
  CHECK(assertion["partialFingerprints"]["ctrlschedSignature/v1"] == "assertion|bank.c:41");
  const auto& thread_flows = assertion["codeFlows"][0]["threadFlows"];
  REQUIRE(thread_flows.size() == 2);
  CHECK(thread_flows[0]["id"] == "T0");
  CHECK(thread_flows[0]["locations"].size() == 2);
  CHECK(thread_flows[0]["locations"][1]["executionOrder"] == 4);
  CHECK(thread_flows[1]["locations"][0]["executionOrder"] == 2);
  CHECK(thread_flows[1]["locations"][0]["kinds"][0] == "memory");
  const auto& related = assertion["relatedLocations"];
  REQUIRE(related.size() == 2);  // the refuted pattern and the site without a line are left out
  CHECK(related[0]["physicalLocation"]["region"]["startLine"] == 20);
  CHECK(related[1]["message"]["text"].get<std::string>().find("R1-W2-R1") != std::string::npos);

  const auto& deadlock = results[1];
  CHECK(deadlock["ruleId"] == "ctrlsched/deadlock");
  CHECK(deadlock["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "./bank%20test");
  CHECK_FALSE(deadlock.contains("codeFlows"));
  CHECK_FALSE(deadlock.contains("relatedLocations"));
}

TEST_CASE("JUnit: a test case per group and one for the passing seeds, everything escaped", "[junit]") {
  const std::string xml = render_junit(two_group_report());
  CHECK(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ctrlsched\" tests=\"3\" failures=\"2\""));
  CHECK(xml.find("<testcase name=\"assertion at my bank.c:41 in main\" classname=\"ctrlsched.bank test\"") !=
        std::string::npos);
  CHECK(xml.find("<testcase name=\"deadlock\"") != std::string::npos);
  CHECK(xml.find("message=\"assertion `a &lt; b &amp;&amp; c` failed (bank.c:41 in main)\" type=\"assertion\"") !=
        std::string::npos);
  CHECK(xml.find("<system-out>printed &lt;script&gt;alert(1)&lt;/script&gt; &amp; \xEF\xBF\xBD bad \xEF\xBF\xBD byte") !=
        std::string::npos);
  CHECK(xml.find("<script>") == std::string::npos);
  CHECK(xml.find("<testcase name=\"passing seeds\"") != std::string::npos);
  CHECK(xml.find("2 of 4 seeds passed") != std::string::npos);
  CHECK(xml.find("<skipped") == std::string::npos);
}

TEST_CASE("JUnit: no passing seed is a skipped test case; XML escaping rules", "[junit]") {
  Report report = two_group_report();
  report.runs.erase(report.runs.begin());  // seeds 1..3 ...
  report.runs.erase(report.runs.begin() + 1);  // ... without seed 2: both remaining fail
  finish_report(report);
  const std::string xml = render_junit(report);
  CHECK(xml.find("<skipped message=\"no seed passed\"/>") != std::string::npos);
  CHECK(xml_escape("a\"b'c\td\ne\r") == "a&quot;b&apos;c\td\ne&#13;");
  CHECK(xml_escape("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80") == "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  CHECK(xml_escape("\xC0\xAF\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

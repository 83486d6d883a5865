// The HTML report (html_report.h) and the timeline behind it (timeline.h): pure functions,
// checked on values built by hand. The page itself runs in a real browser in the e2e test
// tests/reports/check_html.py.
#include <catch2/catch.hpp>

#include <map>

#include "driver_test_support.h"
#include "report/html_report.h"
#include "report/timeline.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::TableSymbolizer;
using Json = nlohmann::ordered_json;

namespace {

const TableSymbolizer::Table kHtmlSites = {
    {0x100, {"main", "/src/t.c", 10}},   {0x200, {"worker", "/src/t.c", 20}},
    {0x210, {"worker", "/src/t.c", 21}}, {0x300, {"other", "/src/t.c", 30}}};

constexpr auto kMutex = static_cast<std::uint16_t>(WaitKind::Mutex);

// A 4-byte event with its aux field (the wait kind of an Acquire or Block).
TraceEvent event_with_aux(EventKind kind, std::uint32_t thread, std::uint64_t site, std::uint64_t address = 0,
                          std::uint16_t aux = 0) {
  return TraceEvent{static_cast<std::uint8_t>(kind), 4, aux, thread, address, site};
}

// T1 takes lock A, is preempted, T2 takes B and blocks on A, T1 blocks on B: an ABBA deadlock.
localize::Trace deadlock_trace() {
  localize::Trace trace;
  trace.handle = "5:random@abc";
  trace.modules.push_back({"/bin/t", 0, 0x10000});
  trace.events = {
      event_with_aux(EventKind::ThreadCreate, 0, 0x101, 1),
      event_with_aux(EventKind::ThreadCreate, 0, 0x101, 2),
      event_with_aux(EventKind::Switch, 0, 0, 1),
      event_with_aux(EventKind::Acquire, 1, 0x201, 0xA, kMutex),
      event_with_aux(EventKind::Switch, 1, 0, 2),
      event_with_aux(EventKind::Acquire, 2, 0x301, 0xB, kMutex),
      event_with_aux(EventKind::Block, 2, 0x301, 0xA, kMutex),
      event_with_aux(EventKind::Switch, 2, 0, 1),
      event_with_aux(EventKind::Block, 1, 0x211, 0xB, kMutex),
  };
  return trace;
}

// T1 reads x, T2 reads and writes x, T1 writes x (site 0x201 is t.c:20 in worker), twice over.
localize::Trace lost_update_trace() {
  localize::Trace trace;
  trace.handle = "7:pct@def";
  trace.modules.push_back({"/bin/t", 0, 0x10000});
  for (int round = 0; round < 2; ++round) {
    for (const TraceEvent& e :
         {event_with_aux(EventKind::Read, 1, 0x201), event_with_aux(EventKind::Switch, 1, 0, 2),
          event_with_aux(EventKind::Read, 2, 0x201), event_with_aux(EventKind::Write, 2, 0x201),
          event_with_aux(EventKind::Switch, 2, 0, 1), event_with_aux(EventKind::Write, 1, 0x201),
          event_with_aux(EventKind::Read, 1, 0x101)}) {
      trace.events.push_back(e);
    }
  }
  return trace;
}

const std::vector<PatternAccess> kR1W2W1 = {
    {"t.c:20 worker", 1, "R"}, {"t.c:20 worker", 2, "W"}, {"t.c:20 worker", 1, "W"}};

}  // namespace

TEST_CASE("timeline: blocks are steps of their own, preemptions come from the switch log", "[html]") {
  TableSymbolizer symbolizer(kHtmlSites);
  const std::vector<SwitchPoint> log = {make_switch_point(SwitchKind::Free, 0, 3, 1),
                                        make_switch_point(SwitchKind::Preempt, 1, 2, 2),
                                        make_switch_point(SwitchKind::Free, 2, 3, 1)};
  const Timeline t = build_timeline(deadlock_trace(), log, symbolizer, 100);
  REQUIRE(t.steps.size() == 5);  // the two creates at one line merge
  CHECK(t.threads == 3);
  CHECK(t.steps[0].what == "thread-create T1, thread-create T2");
  CHECK(t.steps[1].what == "acquire mutex");
  CHECK((t.steps[1].switched_to && !t.steps[1].preempted));
  CHECK((t.steps[2].switched_to && t.steps[2].preempted));  // T1 was preempted for T2
  CHECK(t.steps[3].blocks);
  CHECK(t.steps[3].what == "block on mutex");
  CHECK(t.steps[3].thread == 2);
  CHECK((t.steps[4].blocks && t.steps[4].thread == 1));
  CHECK(t.places[t.steps[4].place].line == 21);
  CHECK_FALSE(t.truncated);

  SECTION("a switch log that disagrees with the trace marks no later preemption") {
    const std::vector<SwitchPoint> wrong = {make_switch_point(SwitchKind::Free, 0, 3, 2),
                                            make_switch_point(SwitchKind::Preempt, 1, 2, 2)};
    const Timeline u = build_timeline(deadlock_trace(), wrong, symbolizer, 100);
    for (const TimelineStep& s : u.steps) CHECK_FALSE(s.preempted);
  }
  SECTION("the step limit cuts the timeline short") {
    const Timeline u = build_timeline(deadlock_trace(), log, symbolizer, 2);
    CHECK(u.steps.size() == 2);
    CHECK(u.truncated);
  }
}

TEST_CASE("timeline: the deadlocked threads, what they wait for and who holds it since when", "[html]") {
  TableSymbolizer symbolizer(kHtmlSites);
  const Timeline t = build_timeline(deadlock_trace(), {}, symbolizer, 100);
  REQUIRE(t.blocked_at_end.size() == 2);
  const BlockedAtEnd& t1 = t.blocked_at_end[0];
  CHECK(t1.thread == 1);
  CHECK(t1.step == 4);
  CHECK(t1.waits_for == "mutex");
  CHECK(t1.holder == std::optional<std::uint32_t>(2));
  CHECK(t1.held_since == std::optional<std::size_t>(2));  // T2's acquire of B
  const BlockedAtEnd& t2 = t.blocked_at_end[1];
  CHECK(t2.thread == 2);
  CHECK(t2.holder == std::optional<std::uint32_t>(1));
  CHECK(t2.held_since == std::optional<std::size_t>(1));  // T1's acquire of A
}

TEST_CASE("find_pattern_steps: the latest occurrence, one step per access, roles on distinct threads", "[html]") {
  TableSymbolizer symbolizer(kHtmlSites);
  const Timeline t = build_timeline(lost_update_trace(), {}, symbolizer, 100);
  REQUIRE(t.steps.size() == 8);  // per round: R T1, RW T2, W T1, R main-line of T1
  CHECK(find_pattern_steps(t, kR1W2W1) == std::vector<std::size_t>{4, 5, 6});

  // Two roles need two threads; one role, one thread (t.c:10 is read by T1 only).
  CHECK(find_pattern_steps(t, std::vector<PatternAccess>{{"t.c:10 main", 1, "R"}, {"t.c:10 main", 2, "R"}}).empty());
  CHECK(find_pattern_steps(t, std::vector<PatternAccess>{{"t.c:10 main", 1, "R"}, {"t.c:10 main", 1, "R"}}) ==
        std::vector<std::size_t>{3, 7});
  // A site the run never reaches: nothing, and the fallback finds no step either.
  const std::vector<PatternAccess> elsewhere = {{"t.c:99 worker", 1, "R"}, {"t.c:20 worker", 2, "W"}};
  CHECK(find_pattern_steps(t, elsewhere).empty());
  CHECK(steps_at_pattern_sites(t, elsewhere) == std::vector<std::size_t>{0, 1, 2, 4, 5, 6});
  // The direction counts: t.c:10 is only read.
  CHECK(find_pattern_steps(t, std::vector<PatternAccess>{{"t.c:10 main", 1, "W"}}).empty());
  CHECK(find_pattern_steps(t, std::vector<PatternAccess>{{"t.c:10 main", 1, "R"}}) == std::vector<std::size_t>{7});
}

TEST_CASE("script_json: nothing in the data can end the script element", "[html]") {
  Json value = {{"output", "</script><script>alert(1)</script> & <!-- \u2028\u2029"}, {"bad", "\xff"}};
  const std::string text = script_json(value);
  CHECK(text.find('<') == std::string::npos);
  CHECK(text.find('>') == std::string::npos);
  CHECK(text.find('&') == std::string::npos);
  CHECK(text.find("\u2028") == std::string::npos);
  CHECK(text.find("\u2029") == std::string::npos);
  const Json back = Json::parse(text);
  CHECK(back["output"] == value["output"]);
  CHECK(back["bad"] == "\xEF\xBF\xBD");  // invalid UTF-8 becomes U+FFFD
}

TEST_CASE("html_data: groups with commands and timelines, the confirmed pattern found on the timeline", "[html]") {
  Report report;
  report.header.seeds_requested = 2;
  report.header.spec.strategy = StrategyKind::Random;
  report.header.test = TestCommand{"./t", {"a b"}, {"--pass-exit-codes", "6"}};
  for (std::uint64_t seed = 0; seed < 2; ++seed) {
    RunResult r;
    r.seed = seed;
    r.threads = 3;
    r.handle = std::to_string(seed) + ":random@00" + std::to_string(seed);
    if (seed == 1) {
      FailureDetails f;
      f.kind = r.kind = OutcomeKind::Assertion;
      f.message = "assertion `x <b>` failed";
      f.signature = "assertion|t.c:10";
      f.details = {"detail"};
      r.failure = f;
      r.output_tail = "<img src=x onerror=alert(1)>";
    }
    report.runs.push_back(r);
  }
  finish_report(report);
  REQUIRE(report.groups.size() == 1);

  TableSymbolizer symbolizer(kHtmlSites);
  std::vector<std::optional<GroupTimeline>> timelines(1);
  timelines[0] = GroupTimeline{build_timeline(lost_update_trace(), {}, symbolizer, 100), 1u};
  Json localization = Json::parse(R"({"falcon": {"score": "jaccard", "patterns": [
      {"rank": 1, "kind": "W1-R2", "symptom": false, "accesses": [{"access": "W", "role": 1, "site": "t.c:99 x", "thread": 1}],
       "confirmation": {"verdict": "refuted"}},
      {"rank": 2, "kind": "R1-W2-W1", "accesses": [
        {"access": "R", "role": 1, "site": "t.c:20 worker", "thread": 1},
        {"access": "W", "role": 2, "site": "t.c:20 worker", "thread": 2},
        {"access": "W", "role": 1, "site": "t.c:20 worker", "thread": 1}],
       "confirmation": {"verdict": "confirmed"}}]}})");

  const Json data = html_data(report, timelines, localization);
  const Json& g = data["groups"][0];
  std::string shrink = g["replay"].get<std::string>();
  REQUIRE(shrink.rfind("ctrlsched replay ", 0) == 0);
  shrink.replace(10, 6, "shrink");
  CHECK(g["shrink"] == shrink);
  CHECK(shrink.find("--pass-exit-codes 6") != std::string::npos);
  CHECK(g["threads"] == 3);
  const Json& t = g["timeline"];
  CHECK(t["threads"] == 3);
  CHECK(t["steps"].size() == 4 * 8);
  CHECK(t["failure"]["step"] == 7);  // T1's last step
  CHECK(t["pattern"]["index"] == 1);  // the confirmed one, not rank 1
  CHECK(t["pattern"]["status"] == "confirmed");
  CHECK(t["pattern"]["complete"] == true);
  CHECK(t["pattern"]["steps"] == Json::array({4, 5, 6}));

  SECTION("without a confirmed pattern the top one that is not a symptom is shown") {
    localization["falcon"]["patterns"][1]["confirmation"]["verdict"] = "inconclusive";
    const Json top = html_data(report, timelines, localization)["groups"][0]["timeline"]["pattern"];
    CHECK(top["index"] == 0);
    CHECK(top["status"] == "top");
    CHECK(top["complete"] == false);  // t.c:99 never runs
  }
  SECTION("a group whose rerun diverged has a note instead of a timeline") {
    timelines[0].reset();
    const Json none = html_data(report, timelines, Json())["groups"][0];
    CHECK(none["timeline"].is_null());
    CHECK(none["timeline_note"].get<std::string>().find("not deterministic") != std::string::npos);
  }
  SECTION("the page carries the test's text only inside the escaped data") {
    const std::string page = render_html(report, timelines, localization);
    CHECK(page.find("<img src=x") == std::string::npos);
    CHECK(page.find("x <b>") == std::string::npos);
    CHECK(page.find("\\u003cimg src=x onerror=alert(1)\\u003e") != std::string::npos);
    CHECK(page.find("innerHTML") == std::string::npos);
  }
}

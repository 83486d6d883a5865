// Traces: `ctrlsched trace` of a fixed seed writes byte-identical trace files and dumps every
// time; `trace --dump` renders a file again; and the happens-before order read back from real
// traces with the localize library is right on hand-built programs: thread create/join, a mutex
// handed from one thread to another, and a condition-variable handoff order what they should, and
// leave unsynchronized accesses concurrent.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>

#include "ctrlsched/localize/happens_before.h"
#include "ctrlsched/localize/trace_file.h"
#include "e2e.h"

using namespace e2e;
namespace loc = ctrlsched::localize;
using ctrlsched::EventKind;
using ctrlsched::WaitKind;

namespace {

struct Traced {
  Process process;
  fs::path file;
  std::optional<loc::Trace> trace;
  std::string read_error;
  std::map<std::string, std::uint64_t> vars;  // "name=0x..." lines the program printed
};

Traced run_trace(const TempDir& dir, const std::vector<std::string>& how, const std::string& target,
                 const std::string& output) {
  Traced t;
  t.file = dir / output;
  Command c;
  c.argv = {ctrlsched_path(), "trace"};
  c.argv.insert(c.argv.end(), how.begin(), how.end());
  c.argv.insert(c.argv.end(), {"--output", t.file.string(), "--", target});
  c.cwd = dir.path();
  c.timeout_seconds = 60;
  t.process = run(c);
  static const std::regex var(R"(^([a-z_]+)=0x([0-9a-f]+)$)");
  for (const std::string& l : lines(t.process.out)) {
    std::smatch m;
    if (std::regex_match(l, m, var)) t.vars[m[1].str()] = std::stoull(m[2].str(), nullptr, 16);
  }
  if (fs::exists(t.file)) {
    auto read = loc::read_trace_file(t.file.string());
    if (read) {
      t.trace = std::move(*read);
    } else {
      t.read_error = read.error();
    }
  }
  return t;
}

// Indices of the plain accesses of `kind` by `thread` to `address`.
std::vector<std::size_t> accesses(const loc::Trace& trace, EventKind kind, std::uint32_t thread, std::uint64_t address) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const ctrlsched::TraceEvent& e = trace.events[i];
    if (loc::kind_of(e) == kind && e.thread == thread && e.address == address) found.push_back(i);
  }
  return found;
}

bool has_event(const loc::Trace& trace, EventKind kind, std::uint32_t thread, WaitKind wait) {
  for (const ctrlsched::TraceEvent& e : trace.events)
    if (loc::kind_of(e) == kind && e.thread == thread && e.aux == static_cast<std::uint16_t>(wait)) return true;
  return false;
}

// The happens-before relation must be a strict partial order consistent with the trace order.
void check_consistent(const loc::HappensBefore& hb, std::size_t events) {
  for (std::size_t i = 0; i < events; ++i) {
    CHECK_FALSE(hb.ordered(i, i));
    for (std::size_t j = 0; j < i; ++j) CHECK_FALSE(hb.ordered(i, j));  // never against trace order
  }
}

const std::vector<std::string> kTraceSeeds = {"0", "1", "2", "3", "4", "5", "6", "7"};

}  // namespace

TEST_CASE("a trace of a fixed seed is byte-identical every time, file and dump", "[trace]") {
  struct Case {
    std::string kind, name, seed;
  };
  for (const Case& c : {Case{"example_inst", "lost_update", "11"}, Case{"example", "abba_deadlock", "11"},
                        Case{"example_inst", "correct_locks", "3"}, Case{"example_inst", "cpp_cache", "5"}}) {
    DYNAMIC_SECTION(c.kind << " " << c.name << " --seed " << c.seed) {
      TempDir dir;
      const std::string target = binary(c.kind, c.name);
      const Traced a = run_trace(dir, {"--seed", c.seed}, target, "a.cstrace");
      const Traced b = run_trace(dir, {"--seed", c.seed}, target, "b.cstrace");
      INFO(a.process.describe());
      INFO(b.process.describe());
      REQUIRE((a.process.exit_code == 0 || a.process.exit_code == 1));
      CHECK(b.process.exit_code == a.process.exit_code);
      REQUIRE(fs::exists(a.file));
      REQUIRE(fs::exists(b.file));
      INFO(a.read_error);
      REQUIRE(a.trace.has_value());
      CHECK_FALSE(a.trace->events.empty());
      CHECK_FALSE(a.trace->truncated);
      const bool same_file = read_file(a.file) == read_file(b.file);
      CHECK(same_file);
      const std::string dump_a = read_file(a.file.string() + ".txt");
      const std::string dump_b = read_file(b.file.string() + ".txt");
      CHECK_FALSE(dump_a.empty());
      const bool same_dump = dump_a == dump_b;
      CHECK(same_dump);
      // The trace is of the run the replay reports: same schedule hash.
      char hash[17];
      std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(a.trace->schedule_hash));
      CHECK(std::string(hash) == replay_schedule_hash(a.process.out));
      CHECK(contains(a.process.out, "trace: "));
      CHECK(contains(a.process.out, "complete"));
    }
  }
}

TEST_CASE("a trace of a failing handle replays it (matched) and trace --dump renders the file again", "[trace]") {
  TempDir dir;
  const std::string target = binary("example_inst", "lost_update");
  const SeedsRun r = run_seeds(dir, target, {"--seeds", "200", "-j2", "--stop-after", "1"});
  INFO(r.describe());
  REQUIRE(r.failures() == 1);
  const Json& failing = r.runs().back();
  const std::string handle = failing["handle"].get<std::string>();
  const Traced t = run_trace(dir, {handle}, target, "failing.cstrace");
  INFO(t.process.describe());
  CHECK(t.process.exit_code == 1);
  CHECK(replay_fail_message(t.process.out) == failing["failure"]["message"].get<std::string>());
  CHECK(contains(t.process.out, "replay matched schedule " + failing["schedule_hash"].get<std::string>()));
  REQUIRE(t.trace.has_value());
  CHECK(t.trace->handle == handle);
  // The lost update is in the trace: two threads both read and write the counter.
  std::set<std::uint32_t> writers;
  for (const auto& e : t.trace->events)
    if (loc::kind_of(e) == EventKind::Write && e.thread != 0) writers.insert(e.thread);
  CHECK(writers.size() == 2);

  Command c;
  c.cwd = dir.path();
  c.argv = {ctrlsched_path(), "trace", "--dump", t.file.string()};
  const Process dump = run(c);
  INFO(dump.describe());
  CHECK(dump.exit_code == 0);
  const bool same_as_written = dump.out == read_file(t.file.string() + ".txt");
  CHECK(same_as_written);
  c.argv = {ctrlsched_path(), "trace", "--dump", t.file.string(), "--output", (dir / "again.txt").string()};
  const Process to_file = run(c);
  INFO(to_file.describe());
  CHECK(to_file.exit_code == 0);
  CHECK(read_file(dir / "again.txt") == dump.out);

  // A file that is not a trace: exit code 5 and one line.
  std::ofstream(dir / "garbage.cstrace") << "not a trace at all, but long enough to hold a header maybe";
  c.argv = {ctrlsched_path(), "trace", "--dump", (dir / "garbage.cstrace").string()};
  const Process bad = run(c);
  INFO(bad.describe());
  CHECK(bad.exit_code == 5);
  CHECK(lines(bad.err).size() == 1);
  CHECK(contains(bad.err, "garbage.cstrace"));
}

TEST_CASE("happens-before from real traces: create and join order, unsynchronized writes do not", "[trace]") {
  const std::string target = binary("program_inst", "hb_create_join");
  for (const std::string strategy : {"pct", "random"}) {
    for (const std::string& seed : kTraceSeeds) {
      {
        TempDir dir;
        const Traced t = run_trace(dir, {"--seed", seed, "--strategy", strategy}, target, "t.cstrace");
        INFO("--strategy " << strategy << " --seed " << seed);
        INFO(t.process.describe());
        CHECK(t.process.exit_code == 0);
        REQUIRE(t.trace.has_value());
        REQUIRE(t.vars.size() == 3);
        const loc::HappensBefore hb(*t.trace);
        check_consistent(hb, t.trace->events.size());
        const auto w_before = accesses(*t.trace, EventKind::Write, 0, t.vars.at("before_create"));
        const auto r_before = accesses(*t.trace, EventKind::Read, 1, t.vars.at("before_create"));
        const auto w_child = accesses(*t.trace, EventKind::Write, 1, t.vars.at("by_child"));
        const auto r_child = accesses(*t.trace, EventKind::Read, 0, t.vars.at("by_child"));
        const auto racy0 = accesses(*t.trace, EventKind::Write, 0, t.vars.at("racy"));
        const auto racy1 = accesses(*t.trace, EventKind::Write, 1, t.vars.at("racy"));
        REQUIRE(w_before.size() == 1);
        REQUIRE(r_before.size() == 1);
        REQUIRE(w_child.size() == 1);
        REQUIRE(r_child.size() == 1);
        REQUIRE(racy0.size() == 1);
        REQUIRE(racy1.size() == 1);
        CHECK(hb.ordered(w_before[0], r_before[0]));  // pthread_create orders it
        CHECK(hb.ordered(w_child[0], r_child[0]));    // pthread_join orders it
        CHECK(hb.concurrent(racy0[0], racy1[0]));     // nothing orders these
        // T1's first event is its start, after T0's create.
        std::size_t create = 0, start = 0;
        for (std::size_t i = 0; i < t.trace->events.size(); ++i) {
          const auto& e = t.trace->events[i];
          if (loc::kind_of(e) == EventKind::ThreadCreate && e.address == 1) create = i;
          if (loc::kind_of(e) == EventKind::ThreadStart && e.thread == 1) start = i;
        }
        CHECK(create < start);
        CHECK(hb.ordered(create, start));
      }
    }
  }
}

TEST_CASE("happens-before from real traces: a mutex handoff orders the critical sections, not what follows them",
          "[trace]") {
  const std::string target = binary("program_inst", "hb_lock_handoff");
  std::set<std::string> orders;  // which thread's critical section came first, over the seeds
  for (const std::string strategy : {"pct", "random"}) {
    for (const std::string& seed : kTraceSeeds) {
      {
        TempDir dir;
        const Traced t = run_trace(dir, {"--seed", seed, "--strategy", strategy}, target, "t.cstrace");
        INFO("--strategy " << strategy << " --seed " << seed);
        INFO(t.process.describe());
        CHECK(t.process.exit_code == 0);
        REQUIRE(t.trace.has_value());
        REQUIRE(t.vars.size() == 2);
        const loc::HappensBefore hb(*t.trace);
        check_consistent(hb, t.trace->events.size());
        const auto w = accesses(*t.trace, EventKind::Write, 1, t.vars.at("guarded"));   // writer = T1
        const auto r = accesses(*t.trace, EventKind::Read, 2, t.vars.at("guarded"));    // reader = T2
        const auto uw = accesses(*t.trace, EventKind::Write, 1, t.vars.at("unguarded"));
        const auto ur = accesses(*t.trace, EventKind::Read, 2, t.vars.at("unguarded"));
        REQUIRE(w.size() == 1);
        REQUIRE(r.size() == 1);
        REQUIRE(uw.size() == 1);
        REQUIRE(ur.size() == 1);
        if (w[0] < r[0]) {
          orders.insert("writer first");
          CHECK(hb.ordered(w[0], r[0]));
        } else {
          orders.insert("reader first");
          CHECK(hb.ordered(r[0], w[0]));
        }
        CHECK(hb.concurrent(uw[0], ur[0]));
        CHECK(has_event(*t.trace, EventKind::Acquire, 1, WaitKind::Mutex));
        CHECK(has_event(*t.trace, EventKind::Release, 2, WaitKind::Mutex));
      }
    }
  }
  CHECK(orders.size() == 2);  // both directions of the handoff were checked
}

TEST_CASE("happens-before from real traces: a condition-variable handoff orders the payload", "[trace]") {
  const std::string target = binary("program_inst", "hb_condvar");
  int waited = 0;
  for (const std::string strategy : {"pct", "random"}) {
    for (const std::string& seed : kTraceSeeds) {
      TempDir dir;
      const Traced t = run_trace(dir, {"--seed", seed, "--strategy", strategy}, target, "t.cstrace");
      INFO("--strategy " << strategy << " --seed " << seed);
      INFO(t.process.describe());
      CHECK(t.process.exit_code == 0);
      REQUIRE(t.trace.has_value());
      REQUIRE(t.vars.size() == 2);
      const loc::HappensBefore hb(*t.trace);
      check_consistent(hb, t.trace->events.size());
      // consumer = T1 (created first), producer = T2
      const auto w = accesses(*t.trace, EventKind::Write, 2, t.vars.at("payload"));
      const auto r = accesses(*t.trace, EventKind::Read, 1, t.vars.at("payload"));
      const auto uw = accesses(*t.trace, EventKind::Write, 2, t.vars.at("unrelated"));
      const auto ur = accesses(*t.trace, EventKind::Read, 1, t.vars.at("unrelated"));
      REQUIRE(w.size() == 1);
      REQUIRE(r.size() == 1);
      REQUIRE(uw.size() == 1);
      REQUIRE(ur.size() == 1);
      CHECK(hb.ordered(w[0], r[0]));
      CHECK(hb.concurrent(uw[0], ur[0]));
      // Did the consumer really wait (a condvar wakeup in the trace)?
      waited += has_event(*t.trace, EventKind::Acquire, 1, WaitKind::Cond);
    }
  }
  CHECK(waited > 0);  // at least one schedule went through the wait, not just the mutex
}

TEST_CASE("sync events in the dump name the line of their own call", "[trace]") {
  const fs::path source = programs_source_dir() / "hb_create_join.c";
  const int create_line = line_containing(source, "CREATE_LINE");
  const int join_line = line_containing(source, "JOIN_LINE");
  REQUIRE(create_line > 0);
  REQUIRE(join_line > 0);
  TempDir dir;
  const Traced t = run_trace(dir, {"--seed", "1"}, binary("program_inst", "hb_create_join"), "t.cstrace");
  INFO(t.process.describe());
  const std::string dump = read_file(t.file.string() + ".txt");
  INFO(dump);
  std::string create, join;
  for (const std::string& l : lines(dump)) {
    if (contains(l, "create T1")) create = l;
    if (contains(l, "join T1")) join = l;
  }
  CHECK(contains(create, "hb_create_join.c:" + std::to_string(create_line) + " main"));
  CHECK(contains(join, "hb_create_join.c:" + std::to_string(join_line) + " main"));
}

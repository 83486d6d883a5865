// Outcome classification from hand-filled run records: the order of the checks, each kind's
// message and signature, and the two "cannot run" cases that end the command.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <cstring>
#include <memory>

#include "driver_test_support.h"
#include "runs/outcome.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::exited;
using ctrlsched::driver::testing::started_record;

namespace {

int killed(int sig) { return sig; }  // as waitpid reports a signal death

void set(char* field, std::size_t size, const char* value) { std::snprintf(field, size, "%s", value); }
#define SET(field, value) set(field, sizeof(field), value)

// A symbolizer that names every frame "fn@<frame>".
ClassifyContext fake_symbols() {
  ClassifyContext context;
  context.timeout_seconds = 2.5;
  context.symbolize = [](std::string_view frame) {
    return SourceLocation{"fn@" + std::string(frame), "fn@" + std::string(frame), "/src/x.c", 7};
  };
  return context;
}

}  // namespace

TEST_CASE("a clean exit passes") {
  auto r = started_record();
  const Classification c = classify(*r, {false, exited(0)}, fake_symbols());
  CHECK(c.problem == LaunchProblem::None);
  CHECK(c.kind == OutcomeKind::Pass);
  CHECK_FALSE(c.failure.has_value());
}

TEST_CASE("exit 127 before the shim started means the target cannot run") {
  auto r = started_record();
  r->shim_started = 0;
  CHECK(classify(*r, {false, exited(127)}, {}).problem == LaunchProblem::CannotRun);
  CHECK(classify(*r, {false, exited(0)}, {}).problem == LaunchProblem::ShimNotLoaded);
  r->outcome = static_cast<std::uint32_t>(ShimOutcome::ShimError);
  CHECK(classify(*r, {false, exited(1)}, {}).problem == LaunchProblem::ShimFailed);
  // ... but once the shim ran, exit 127 is just the test's exit status.
  auto s = started_record();
  CHECK(classify(*s, {false, exited(127)}, {}).kind == OutcomeKind::Exit);
}

TEST_CASE("a driver timeout beats whatever the record says") {
  auto r = started_record();
  r->outcome = static_cast<std::uint32_t>(ShimOutcome::Assertion);
  const Classification c = classify(*r, {true, killed(SIGKILL)}, fake_symbols());
  CHECK(c.kind == OutcomeKind::Timeout);
  CHECK(c.failure->message == "timeout: killed after 2.5 s");
  CHECK(c.failure->signature == "timeout");
  r->shim_started = 0;  // a run that hung before the shim started is still a timeout
  CHECK(classify(*r, {true, killed(SIGKILL)}, {}).kind == OutcomeKind::Timeout);
}

TEST_CASE("assertions carry expression, place and function; the signature ignores the message") {
  auto r = started_record();
  r->outcome = static_cast<std::uint32_t>(ShimOutcome::Assertion);
  SET(r->failure.expression, "total == 300");
  SET(r->failure.file, "/home/u/bank.c");
  SET(r->failure.function, "main");
  r->failure.line = 41;
  r->failure.stack.count = 1;
  SET(r->failure.stack.frames[0].text, "/bin/bank+0x1234");
  const Classification c = classify(*r, {false, killed(SIGABRT)}, fake_symbols());
  REQUIRE(c.kind == OutcomeKind::Assertion);
  CHECK(c.failure->message == "assertion `total == 300` failed (bank.c:41 in main)");
  CHECK(c.failure->file == "/home/u/bank.c");
  CHECK(c.failure->line == 41);
  CHECK(c.failure->function == "main");
  CHECK(c.failure->stack == std::vector<std::string>{"fn@/bin/bank+0x1234"});
  CHECK(c.failure->signature == "assertion|/home/u/bank.c:41|main");
}

TEST_CASE("signals name the signal, thread and symbolized pc") {
  auto r = started_record();
  r->outcome = static_cast<std::uint32_t>(ShimOutcome::Signal);
  r->signal.number = SIGSEGV;
  r->signal.thread = 1;
  r->signal.fault_address = 0;
  SET(r->signal.pc_location.text, "/bin/t+0x10");
  const Classification c = classify(*r, {false, killed(SIGSEGV)}, fake_symbols());
  REQUIRE(c.kind == OutcomeKind::Signal);
  CHECK(c.failure->message == "SIGSEGV in T1 at fn@/bin/t+0x10 (address 0x0)");
  CHECK(c.failure->signature == "signal|SIGSEGV|fn@/bin/t+0x10");
  CHECK(c.failure->line == 7);
}

TEST_CASE("deadlocks list who waits for what, held by whom") {
  auto r = started_record();
  r->outcome = static_cast<std::uint32_t>(ShimOutcome::Deadlock);
  r->deadlock.blocked_count = 2;
  r->deadlock.reported = 2;
  auto& a = r->deadlock.threads[0];
  a.thread = 1;
  a.wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  a.object = 0x5000;
  a.holder = 2;
  a.stack.count = 1;
  SET(a.stack.frames[0].text, "/bin/t+0x20");
  auto& b = r->deadlock.threads[1];
  b.thread = 2;
  b.wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  b.object = 0x6000;
  b.holder = 1;
  b.stack.count = 1;
  SET(b.stack.frames[0].text, "/bin/t+0x10");
  const Classification c = classify(*r, {false, exited(86)}, fake_symbols());
  REQUIRE(c.kind == OutcomeKind::Deadlock);
  CHECK(c.failure->message ==
        "deadlock: 2 threads blocked — T1 waits for mutex 0x5000 held by T2; T2 waits for mutex 0x6000 held by T1");
  CHECK(c.failure->details == std::vector<std::string>{"T1 waits for mutex 0x5000 held by T2", "    at fn@/bin/t+0x20",
                                                       "T2 waits for mutex 0x6000 held by T1", "    at fn@/bin/t+0x10"});
  // Sorted top frames: the same deadlock entered in the other order groups together.
  CHECK(c.failure->signature == "deadlock|fn@/bin/t+0x10|fn@/bin/t+0x20");
}

TEST_CASE("a deadlock names the global a sync object lies in") {
  auto r = started_record();
  r->outcome = static_cast<std::uint32_t>(ShimOutcome::Deadlock);
  r->modules.count = 1;
  SET(r->modules.modules[0].path, "/bin/t");
  r->modules.modules[0].bias = 0x4000;
  r->modules.modules[0].size = 0x3000;
  r->deadlock.blocked_count = 2;
  r->deadlock.reported = 2;
  auto& a = r->deadlock.threads[0];
  a.thread = 1;
  a.wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  a.object = 0x5008;  // in /bin/t at 0x1008
  a.holder = 2;
  auto& b = r->deadlock.threads[1];
  b.thread = 2;
  b.wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  b.object = 0x9000;  // outside every module (the heap): an address only
  b.holder = 1;
  ClassifyContext context = fake_symbols();
  context.data_symbol = [](const std::string& module, std::uint64_t offset) {
    return module == "/bin/t" && offset == 0x1008 ? std::string("g_cache+8") : std::string();
  };
  const Classification c = classify(*r, {false, exited(86)}, context);
  CHECK(c.failure->message == "deadlock: 2 threads blocked — T1 waits for mutex g_cache+8 (0x5008) held by T2; "
                              "T2 waits for mutex 0x9000 held by T1");
  // Without a data symbolizer, addresses as before.
  CHECK(classify(*r, {false, exited(86)}, fake_symbols()).failure->message ==
        "deadlock: 2 threads blocked — T1 waits for mutex 0x5008 held by T2; T2 waits for mutex 0x9000 held by T1");
}

TEST_CASE("joins, hangs, exits, divergences and shim errors") {
  auto j = started_record();
  j->outcome = static_cast<std::uint32_t>(ShimOutcome::Deadlock);
  j->deadlock.blocked_count = j->deadlock.reported = 1;
  j->deadlock.threads[0] = {};
  j->deadlock.threads[0].wait_kind = static_cast<std::uint32_t>(WaitKind::Join);
  j->deadlock.threads[0].holder = 3;
  CHECK(classify(*j, {false, exited(86)}, {}).failure->details.front() == "T0 waits to join T3");
  CHECK(classify(*j, {false, exited(86)}, {}).failure->message == "deadlock: 1 threads blocked — T0 waits to join T3");
  // With a lock cycle present, the joiner is left out of the message and the signature.
  j->deadlock.blocked_count = j->deadlock.reported = 2;
  j->deadlock.threads[1] = {};
  j->deadlock.threads[1].thread = 3;
  j->deadlock.threads[1].wait_kind = static_cast<std::uint32_t>(WaitKind::Mutex);
  j->deadlock.threads[1].object = 0x10;
  j->deadlock.threads[1].holder = -1;
  j->deadlock.threads[1].stack.count = 1;
  SET(j->deadlock.threads[1].stack.frames[0].text, "/bin/t+0x50");
  const Classification cycle = classify(*j, {false, exited(86)}, fake_symbols());
  CHECK(cycle.failure->message == "deadlock: 2 threads blocked — T3 waits for mutex 0x10");
  CHECK(cycle.failure->signature == "deadlock|fn@/bin/t+0x50");
  CHECK(cycle.failure->details.size() == 3);

  auto h = started_record();
  h->outcome = static_cast<std::uint32_t>(ShimOutcome::Hang);
  h->failure.thread = 2;
  h->failure.stack.count = 1;
  SET(h->failure.stack.frames[0].text, "/bin/t+0x30");
  const Classification hang = classify(*h, {false, exited(86)}, fake_symbols());
  CHECK(hang.failure->message == "hang: exceeded --max-steps 1000 in T2 at fn@/bin/t+0x30");
  CHECK(hang.failure->signature == "hang|fn@/bin/t+0x30");

  auto e = started_record();
  e->outcome = static_cast<std::uint32_t>(ShimOutcome::Exit);
  e->exit_status = 3;
  CHECK(classify(*e, {false, exited(3)}, {}).failure->message == "exit status 3");

  auto d = started_record();
  d->outcome = static_cast<std::uint32_t>(ShimOutcome::Diverged);
  d->divergence.decision_index = 4;
  d->divergence.step = 9;
  SET(d->divergence.what, "recorded S2 but the candidates were T0 T1");
  CHECK(classify(*d, {false, exited(86)}, {}).failure->message ==
        "diverged at decision 4 (step 9): recorded S2 but the candidates were T0 T1");

  auto s = started_record();
  s->outcome = static_cast<std::uint32_t>(ShimOutcome::ShimError);
  SET(s->failure.message, "too many threads");
  const Classification error = classify(*s, {false, exited(86)}, {});
  CHECK(error.kind == OutcomeKind::Error);
  CHECK(error.failure->message == "shim error: too many threads");
}

TEST_CASE("without a shim verdict the wait status decides") {
  auto r = started_record();
  const Classification sig = classify(*r, {false, killed(SIGKILL)}, {});
  CHECK(sig.kind == OutcomeKind::Signal);
  CHECK(sig.failure->message == "killed by SIGKILL");
  const Classification exit = classify(*r, {false, exited(2)}, {});
  CHECK(exit.kind == OutcomeKind::Exit);
  CHECK(exit.failure->signature == "exit|2");
}

TEST_CASE("record strings are read defensively even without a terminating NUL") {
  char field[4] = {'a', 'b', 'c', 'd'};
  CHECK(record_text(field) == "abcd");
  CHECK(signal_name(SIGABRT) == "SIGABRT");
}

TEST_CASE("the watchdog note") {
  auto r = started_record();
  CHECK(uncontrolled_note(*r, {}).empty());
  r->uncontrolled.count = 2;
  r->uncontrolled.thread = 1;
  r->uncontrolled.syscall = 0;
  SET(r->uncontrolled.location.text, "/bin/t+0x40");
  CHECK(uncontrolled_note(*r, {}) ==
        "the watchdog released T1, blocked outside the model in system call 0 at /bin/t+0x40 (2 times): not "
        "reproducible bit for bit, the released thread ran uncontrolled");
}

#undef SET

// --pass-exit-codes: parsing of the list (strict, one usage line per mistake) and its effect on
// outcome classification (a declared status passes, any other one fails, 0 included), and the
// replay command of a report carrying it.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "driver_test_support.h"
#include "exit_codes.h"
#include "options/command_line.h"
#include "report/grouping.h"
#include "runs/outcome.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;
using ctrlsched::driver::testing::exited;
using ctrlsched::driver::testing::started_record;
using ctrlsched::driver::testing::usage;

TEST_CASE("--pass-exit-codes defaults to 0 and takes a sorted, de-duplicated list") {
  std::vector<std::string> plain = {"./t"};
  CHECK(*parse_command_line(plain).options.pass_exit_codes == std::vector<int>{0});
  std::vector<std::string> list = {"--pass-exit-codes", "6,0,6,255", "./t"};
  const CommandLine cl = parse_command_line(list);
  CHECK(cl.given.pass_exit_codes);
  CHECK(*cl.options.pass_exit_codes == std::vector<int>{0, 6, 255});
  std::vector<std::string> replay = {"replay", "3:random", "--pass-exit-codes=6", "./t"};
  CHECK(*parse_command_line(replay).options.pass_exit_codes == std::vector<int>{6});
}

TEST_CASE("--pass-exit-codes rejects anything but statuses 0-255 separated by commas") {
  const std::string expected = "expects exit statuses from 0 to 255 separated by commas, got '";
  for (const std::string bad : {"", "256", "-1", "6,", ",6", "6,,7", "6 7", "x", "0x6", "1000", "+6", "6;7"}) {
    INFO("value '" << bad << "'");
    const std::string message = usage({"--pass-exit-codes", bad, "./t"});
    CHECK(message.find(expected + bad + "'") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("a declared exit status passes, an undeclared one fails, 0 included") {
  auto record = started_record();
  ClassifyContext only_six;
  only_six.passing_exit_codes = {6};
  CHECK(classify(*record, {false, exited(6)}, only_six).kind == OutcomeKind::Pass);
  const Classification zero = classify(*record, {false, exited(0)}, only_six);
  CHECK(zero.kind == OutcomeKind::Exit);
  CHECK(zero.failure->message == "exit status 0");
  ClassifyContext both;
  both.passing_exit_codes = {0, 6};
  CHECK(classify(*record, {false, exited(0)}, both).kind == OutcomeKind::Pass);
  CHECK(classify(*record, {false, exited(6)}, both).kind == OutcomeKind::Pass);
  CHECK(classify(*record, {false, exited(7)}, both).kind == OutcomeKind::Exit);
  // The default: only 0 passes.
  CHECK(classify(*record, {false, exited(6)}, ClassifyContext{}).kind == OutcomeKind::Exit);
}

TEST_CASE("exit() in a thread with a declared status passes; crashes still fail") {
  auto record = started_record();
  record->outcome = static_cast<std::uint32_t>(ShimOutcome::Exit);
  record->exit_status = 6;
  ClassifyContext six;
  six.passing_exit_codes = {0, 6};
  CHECK(classify(*record, {false, exited(6)}, six).kind == OutcomeKind::Pass);
  CHECK(classify(*record, {false, exited(6)}, ClassifyContext{}).kind == OutcomeKind::Exit);
  // A program that normally exits 6 and this time crashes: the crash is reported.
  auto crashed = started_record();
  CHECK(classify(*crashed, {false, SIGSEGV}, six).kind == OutcomeKind::Signal);
}

TEST_CASE("the replay command carries the options that judge the run") {
  TestCommand test{"./t", {"a b"}, {"--pass-exit-codes=0,6", "--private-cwd"}};
  CHECK(replay_command("4:pct:d3:k9@0123456789abcdef", test) ==
        "ctrlsched replay 4:pct:d3:k9@0123456789abcdef --pass-exit-codes=0,6 --private-cwd ./t 'a b'");
  CHECK(replay_command("4:random", TestCommand{"./t", {}}) == "ctrlsched replay 4:random ./t");
}

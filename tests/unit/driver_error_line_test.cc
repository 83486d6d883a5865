// Errors are printed on one line even when they quote user input holding control characters
// (found by fuzzing the handle parser, docs/fuzzing.md).
#include <catch2/catch.hpp>

#include <string>

#include "cli/error_line.h"
#include "ctrlsched/run_spec.h"

using ctrlsched::driver::one_line;

TEST_CASE("one_line escapes control characters and keeps everything else") {
  CHECK(one_line("bad seed 'x' (expected a decimal number)") == "bad seed 'x' (expected a decimal number)");
  CHECK(one_line("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(one_line(std::string("nul\0esc\x1b del\x7f", 13)) == "nul\\x00esc\\x1b del\\x7f");
  CHECK(one_line("caf\xc3\xa9") == "caf\xc3\xa9");  // UTF-8 stays readable
}

TEST_CASE("the fuzzer's handle with a newline gives a one-line error once printed") {
  std::string error;
  CHECK_FALSE(ctrlsched::parse_handle("a\nndom:bp2", &error).has_value());
  CHECK(error.find('\n') != std::string::npos);  // the parser quotes its input as it is
  CHECK(one_line(error).find('\n') == std::string::npos);
  CHECK(one_line(error) == "bad seed 'a\\nndom' (expected a decimal number)");
}

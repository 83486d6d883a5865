// docs/cli.md must carry the option table exactly as options.def renders it, so the manual can
// never describe an option the parser does not know (or miss one it does).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "cli/help.h"
#include "options/command_line.h"

TEST_CASE("docs/cli.md contains the generated option table") {
  std::ifstream in(std::string(CTRLSCHED_SOURCE_DIR) + "/docs/cli.md");
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  const std::string expected = ctrlsched::driver::options_markdown();
  INFO("paste this table into docs/cli.md (between the option-table markers):\n" << expected);
  CHECK(text.str().find(expected) != std::string::npos);
}

// e2e.lock_sites: synchronization sites of the std:: lock wrappers are the user's lines.
// std::mutex::lock, std::lock_guard, std::unique_lock, std::scoped_lock, std::shared_mutex's
// locks and std::condition_variable::notify_one are inlined through libstdc++'s headers down to
// the pthread call; the symbolizer walks the inlined scopes out to the user's call
// (report/symbolizer.cc). It used to stop after the innermost one and name gthr-default.h:749.
// The function named beside that line is the one the call is in, not the ELF symbol it was all
// inlined into (for a method a std::thread lambda calls, libstdc++'s _State_impl<...>::_M_run()).
//
// Not covered, because the shim records one return address per operation: a wrapper GCC keeps
// out of line (it does so in main, which it optimizes for size: the site is inside
// std::mutex::lock and the user's line is one frame up), and a library call in tail position
// (`cv.notify_one();` as a function's last statement becomes a jump, and the return address is
// the caller's caller). docs/localization.md, "Falcon patterns", "Sites at the user's line".
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <string>

#include "e2e.h"

using namespace e2e;

namespace {

// The lines of programs/std_lock_sites.cpp marked "// site:".
std::set<int> marked_lines() {
  std::ifstream in(programs_source_dir() / "std_lock_sites.cpp");
  std::set<int> marked;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const auto code = line.find_first_not_of(' ');
    if (code != std::string::npos && line.compare(code, 2, "//") != 0 && line.find("// site:") != std::string::npos) {
      marked.insert(number);
    }
  }
  return marked;
}

}  // namespace

TEST_CASE("lock sites: std:: lock wrappers are reported at the user's line, not in libstdc++'s headers", "[lock-sites]") {
  const std::set<int> marked = marked_lines();
  REQUIRE(marked.size() == 9);
  const int tally_line = line_containing(programs_source_dir() / "std_lock_sites.cpp", "lock_guard in a method");
  REQUIRE(tally_line > 0);
  for (const char* seed : {"0", "1", "2"}) {
    INFO("seed " << seed);
    TempDir dir;
    Command c;
    c.argv = {ctrlsched_path(), "trace", "--seed", seed, "--output", (dir / "t.cstrace").string(), "--",
              binary("program", "std_lock_sites")};
    c.cwd = dir.path();
    c.timeout_seconds = 60;
    const Process p = run(c);
    INFO(p.out << p.err);
    REQUIRE(p.exit_code == 0);
    const std::string dump = read_file(dir / "t.cstrace.txt");
    INFO(dump);
    for (const int line : marked) CHECK(contains(dump, "std_lock_sites.cpp:" + std::to_string(line) + " "));
    CHECK(contains(dump, "std_lock_sites.cpp:" + std::to_string(tally_line) + " Tally::add(int)"));
    CHECK_FALSE(contains(dump, "_M_run"));
    for (const char* header : {"gthr-default.h:", "gthr-posix.h:", "std_mutex.h:", "unique_lock.h:", "mutex.h:",
                               "  mutex:", "  shared_mutex:", "  condition_variable:"}) {
      CHECK_FALSE(contains(dump, header));
    }
  }
}

// The static failure-site scan (failure_sites.h) on this very test binary: a user-named failure
// function reached by a direct call, imported ones (abort, exit) reached through the PLT, and
// the error for a file that is not ELF.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

#include "localize/failure_sites.h"

using namespace ctrlsched::driver;

extern "C" {
// Never called: the scan looks at code, not at what runs.
__attribute__((noinline, used)) void conseq_test_report_failure(int code) {
  asm volatile("" ::"r"(code));
}
__attribute__((noinline, used)) int conseq_test_checker(int value) {
  if (value < 0) conseq_test_report_failure(value);
  return value + 1;
}
__attribute__((noinline, used)) void conseq_test_aborter(int value) {
  if (value == 42) std::abort();
}
}

namespace {

const FailureSiteFunction* find(const std::vector<FailureSiteFunction>& all, const std::string& name) {
  auto it = std::ranges::find(all, name, &FailureSiteFunction::name);
  return it == all.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("failure-site functions of this binary", "[driver][failure-sites]") {
  std::string error;
  auto plain = find_failure_site_functions("/proc/self/exe", {}, &error);
  REQUIRE(plain);
  CHECK(error.empty());
  CHECK(find(*plain, "conseq_test_checker") == nullptr);  // calls no failure function
  // At -O2 GCC moves the abort() call into "conseq_test_aborter.cold"; the function itself counts.
  const FailureSiteFunction* aborter = find(*plain, "conseq_test_aborter");
  REQUIRE(aborter != nullptr);
  CHECK(aborter->calls == std::vector<std::string>{"abort"});
  CHECK(aborter->low < aborter->high);
  CHECK(std::ranges::is_sorted(*plain, {}, &FailureSiteFunction::low));

  auto named = find_failure_site_functions("/proc/self/exe", {"conseq_test_report_failure"});
  REQUIRE(named);
  const FailureSiteFunction* checker = find(*named, "conseq_test_checker");
  REQUIRE(checker != nullptr);
  CHECK(checker->calls == std::vector<std::string>{"conseq_test_report_failure"});
}

TEST_CASE("a file that is not ELF is reported", "[driver][failure-sites]") {
  std::string error;
  CHECK_FALSE(find_failure_site_functions(CTRLSCHED_SOURCE_DIR "/README.md", {}, &error));
  CHECK(error == CTRLSCHED_SOURCE_DIR "/README.md: not an ELF file");
  CHECK_FALSE(find_failure_site_functions("/nonexistent/file", {}, &error));
  CHECK(error == "/nonexistent/file: No such file or directory");
}

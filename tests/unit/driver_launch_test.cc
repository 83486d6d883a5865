// The child's environment (shim preloaded, record descriptor, deterministic malloc tunables) and
// handle/frame parsing used by symbolization.
#include <catch2/catch.hpp>

#include <algorithm>

#include "report/symbolizer.h"
#include "runs/child_launch.h"

using namespace ctrlsched::driver;

namespace {

bool has_entry(const std::vector<std::string>& env, const std::string& entry) {
  return std::find(env.begin(), env.end(), entry) != env.end();
}

}  // namespace

TEST_CASE("the child environment preloads the shim and passes the record descriptor") {
  const char* parent[] = {"PATH=/bin", "HOME=/root", nullptr};
  const auto env = child_environment(parent, "/lib/shim.so", 7);
  CHECK(has_entry(env, "PATH=/bin"));
  CHECK(has_entry(env, "HOME=/root"));
  CHECK(has_entry(env, "LD_PRELOAD=/lib/shim.so"));
  CHECK(has_entry(env, "CTRLSCHED_RECORD_FD=7"));
  CHECK(has_entry(env, "GLIBC_TUNABLES=glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0"));
  CHECK(has_entry(env, "CTRLSCHED_TRACE_FD=none"));  // said even when not tracing: same environment size in every mode
  CHECK(env.size() == 6);
}

TEST_CASE("existing LD_PRELOAD and GLIBC_TUNABLES are kept; stale descriptors are dropped") {
  const char* parent[] = {"LD_PRELOAD=/x/other.so", "GLIBC_TUNABLES=glibc.foo=1", "CTRLSCHED_RECORD_FD=3",
                          "CTRLSCHED_TRACE_FD=4", "LD_PRELOADX=keep", nullptr};
  const auto env = child_environment(parent, "/lib/shim.so", 9);
  CHECK(has_entry(env, "LD_PRELOAD=/lib/shim.so:/x/other.so"));
  CHECK(has_entry(env, "GLIBC_TUNABLES=glibc.foo=1:glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0"));
  CHECK(has_entry(env, "CTRLSCHED_RECORD_FD=9"));
  CHECK_FALSE(has_entry(env, "CTRLSCHED_RECORD_FD=3"));
  CHECK_FALSE(has_entry(env, "CTRLSCHED_TRACE_FD=4"));
  CHECK(has_entry(env, "LD_PRELOADX=keep"));
}

TEST_CASE("frames split at the last '+0x'; free text stays free text") {
  const auto a = parse_module_offset("/usr/lib/libstdc++.so.6+0xd44a2");
  REQUIRE(a.has_value());
  CHECK(a->module == "/usr/lib/libstdc++.so.6");
  CHECK(a->offset == 0xd44a2);
  CHECK_FALSE(parse_module_offset("in the scheduler").has_value());
  CHECK_FALSE(parse_module_offset("+0x10").has_value());
  CHECK_FALSE(parse_module_offset("/bin/t+0xzz").has_value());
  CHECK(format_location("main", "/src/a.c", 4) == "main (a.c:4)");
  CHECK(format_location("main", "", 0) == "main");
  CHECK(format_location("", "/src/a.c", 4) == "a.c:4");
}

TEST_CASE("symbolization never fails: unknown modules give the raw frame back") {
  Symbolizer symbolizer;
  CHECK(symbolizer.symbolize("/no/such/module.so+0x1234").text == "/no/such/module.so+0x1234");
  CHECK(symbolizer.symbolize("free text").text == "free text");
}

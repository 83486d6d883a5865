// e2e.atomics: atomic operations are accesses of the analyses (ctrlsched/plain_access.h) and are
// named at the user's line, not inside libstdc++ (report/symbolizer.h). hit_counter (the corpus)
// increments a std::atomic with a separate relaxed load and store: the lost update is an
// R1-W2-W1 of two atomic operations on line 20, which the analyses could not see before.
#include <catch2/catch.hpp>

#include "e2e.h"

using namespace e2e;

TEST_CASE("atomics: a lost update made of std::atomic load and store is ranked first, at the user's line",
          "[atomics]") {
  TempDir dir;
  const SeedsRun r = run_seeds(dir, binary("corpus_inst", "hit_counter"), {"--seeds", "200", "--localize", "-j2"});
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  const Json& loc = r.json.at("localization");
  REQUIRE(loc.at("failing").get<int>() > 0);
  const Json& patterns = loc.at("falcon").at("patterns");
  REQUIRE_FALSE(patterns.empty());
  INFO("Falcon: " << patterns.dump());
  const Json& first = patterns.at(0);
  CHECK(first.at("rank") == 1);
  CHECK(first.at("tied") == 1);
  CHECK(first.at("location") == "g_stats");
  for (const Json& access : first.at("accesses")) CHECK(contains(access.at("site").get<std::string>(), "hit_counter.cpp:20"));
  // The lost update itself, made of the two atomic operations, is among the patterns.
  bool lost_update = false;
  for (const Json& p : patterns) {
    bool on_line_20 = true;
    for (const Json& access : p.at("accesses")) on_line_20 &= contains(access.at("site").get<std::string>(), "hit_counter.cpp:20");
    lost_update |= p.at("kind") == "R1-W2-W1" && p.at("location") == "g_stats" && on_line_20;
  }
  CHECK(lost_update);
  // No pattern is named inside the atomic's header.
  for (const Json& p : patterns)
    for (const Json& access : p.at("accesses")) CHECK_FALSE(contains(access.at("site").get<std::string>(), "atomic_base.h"));
  // Locon's pairs see the atomics too: its first finding is on line 20.
  const Json& findings = loc.at("locon").at("findings");
  REQUIRE_FALSE(findings.empty());
  CHECK(contains(findings.at(0).dump(), "hit_counter.cpp:20"));
}

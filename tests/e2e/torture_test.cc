// The torture corpus (tests/torture/README.md): realistic small programs run under ctrlsched for
// a fixed set of seeds. Must-pass programs pass every seed; each must-fail program fails with
// its failure kind, and since a seed fixes the schedule, the exact count of every outcome kind
// over the fixed seeds is part of the expectation (a change in a strategy or in the shim that
// moves them shows up here and must be looked at).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "e2e.h"

using namespace e2e;

namespace {

struct TortureCase {
  std::string name;
  std::uint64_t seeds;
  std::vector<std::string> options;               // besides --seeds and -j2
  std::map<std::string, std::uint64_t> outcomes;  // expected count per kind; others must be 0
  std::string message = {};                       // must-fail: part of the one failure group's message
};

void check_outcomes(const TortureCase& c) {
  TempDir dir;
  std::vector<std::string> options = {"--seeds", std::to_string(c.seeds), "-j2"};
  options.insert(options.end(), c.options.begin(), c.options.end());
  const SeedsRun r = run_seeds(dir, binary("torture", c.name), options, {}, 240);
  INFO(c.name << "\n" << r.describe());
  REQUIRE_FALSE(r.process.timed_out);
  REQUIRE(r.json.is_object());
  const bool all_pass = c.outcomes.size() == 1 && c.outcomes.count("pass") == 1;
  CHECK(r.process.exit_code == (all_pass ? 0 : 1));
  std::map<std::string, std::uint64_t> seen;
  for (const auto& [kind, count] : r.json.at("outcomes").items()) {
    if (count.get<std::uint64_t>() != 0) seen[kind] = count.get<std::uint64_t>();
  }
  std::string seen_text;
  for (const auto& [kind, count] : seen) seen_text += kind + "=" + std::to_string(count) + " ";
  INFO("outcomes seen: " << seen_text);
  CHECK(seen == c.outcomes);
  if (!all_pass) {
    REQUIRE(r.groups().size() == 1);
    CHECK(contains(r.groups()[0]["message"].get<std::string>(), c.message));
  }
}

}  // namespace

TEST_CASE("torture: realistic correct programs pass every seed", "[torture]") {
  const std::vector<TortureCase> cases = {
      {"work_queue_detached", 4, {}, {{"pass", 4}}},   // 200 detached threads
      {"thousand_threads", 2, {}, {{"pass", 2}}},      // 1000 threads alive at once
      {"signal_thread", 8, {}, {{"pass", 8}}},         // sigwait thread, sigaction handler
      {"tls_destructors", 12, {}, {{"pass", 12}}},     // pthread key destructors, 2 rounds
      {"thread_local_cache", 12, {}, {{"pass", 12}}},  // C++ thread_local destructors
      {"fork_popen", 6, {}, {{"pass", 6}}},            // popen, fork+exec, waitpid
      {"blocking_pipe", 8, {}, {{"pass", 8}}},         // read() released by the watchdog
      {"timed_waits", 12, {}, {{"pass", 12}}},         // sem_timedwait, cond_timedwait, sleeps
      {"async_futures", 12, {}, {{"pass", 12}}},       // std::async, promise, packaged_task
      {"c11_pipeline", 12, {}, {{"pass", 12}}},        // mtx/cnd/call_once/tss
      {"big_output", 2, {}, {{"pass", 2}}},            // 10 MB on stdout
  };
  for (const TortureCase& c : cases) {
    DYNAMIC_SECTION(c.name) { check_outcomes(c); }
  }
}

TEST_CASE("torture: realistic buggy programs fail with their kind, in fixed counts per seed set", "[torture]") {
  // Counts for seeds 0..19 under pct (d=3, calibrated k; pinned: the default before the portfolio), the same with
  // -j1 and -j2. They change only when a strategy, the calibration or the shim's scheduling
  // points change: then look at the new counts and update them deliberately.
  const std::vector<TortureCase> cases = {
      {"bank_audit", 20, {"--strategy", "pct"}, {{"assertion", 9}, {"pass", 11}}, "assertion `total == 300` failed (bank_audit.c:"},
      {"late_config", 20, {"--strategy", "pct"}, {{"signal", 10}, {"pass", 10}}, "SIGSEGV in T1 at worker (late_config.c:"},
      {"reload_exit", 20, {"--strategy", "pct"}, {{"exit", 2}, {"pass", 18}}, "exit status 3"},
      {"swap_deadlock", 20, {"--strategy", "pct"}, {{"deadlock", 2}, {"pass", 18}}, "deadlock: "},
      {"uncaught_exception", 20, {"--strategy", "pct"}, {{"signal", 8}, {"pass", 12}}, "SIGABRT in T"},
      // Every seed: these bugs do not depend on the interleaving.
      {"polite_livelock", 4, {"--max-steps", "20000"}, {{"hang", 4}}, "hang: exceeded --max-steps 20000 and made no progress in 5000 more steps (livelock) in T1 at is_started"},
      {"endless_retry", 2, {"--timeout", "0.5"}, {{"timeout", 2}}, "timeout: killed after 0.5 s"},
  };
  for (const TortureCase& c : cases) {
    DYNAMIC_SECTION(c.name) { check_outcomes(c); }
  }
}

TEST_CASE("torture: 10 MB of output under ctrlsched is byte-identical to the native run", "[torture]") {
  TempDir dir;
  const std::string target = binary("torture", "big_output");
  const Process native = run({target}, 60);
  INFO(native.describe(200));
  REQUIRE(native.exit_code == 0);
  REQUIRE(native.out.size() > 10 * 1024 * 1024);
  for (const std::string seed : {"0", "1"}) {
    const Process replay = run_replay(dir, {"--seed", seed}, target);
    INFO("seed " << seed << "\n" << replay.describe(200));
    CHECK(replay.exit_code == 0);
    // The replay prints one header line, then the test's output, then its own summary lines.
    const std::size_t start = replay.out.find('\n') + 1;
    REQUIRE(replay.out.size() >= start + native.out.size());
    CHECK(replay.out.compare(start, native.out.size(), native.out) == 0);
  }
}

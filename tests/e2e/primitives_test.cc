// Primitive semantics across many seeds: each program in programs/ asserts the invariants of one
// kind of primitive (mutual exclusion, recursion counts, error codes, wakeups, barrier rounds,
// ...), and must pass every seed under both strategies. Programs that note() which path a run
// took must also have explored the interesting paths (a timed lock that both timed out and
// succeeded, two readers inside an rwlock together, ...), so a model too strict to allow them
// fails here as well.
#include <catch2/catch.hpp>

#include "e2e.h"

using namespace e2e;

namespace {

struct Primitive {
  std::string program;
  std::vector<std::string> must_note;  // paths that must occur at least once per strategy
  std::vector<std::string> options;    // extra ctrlsched options
};

void check_primitive_passes(const Primitive& p, const std::string& strategy, std::uint64_t seeds) {
  TempDir dir;
  const fs::path notes = dir / "notes.txt";
  std::vector<std::string> options = {"--seeds", std::to_string(seeds), "-j2", "--strategy", strategy,
                                      "--stop-after", "5", "--max-steps", "100000"};
  options.insert(options.end(), p.options.begin(), p.options.end());
  const SeedsRun r = run_seeds(dir, program(p.program), options, {notes.string()});
  INFO(r.describe());
  REQUIRE_FALSE(r.process.timed_out);
  REQUIRE(r.json.is_object());
  CHECK(r.process.exit_code == 0);
  CHECK(r.failures() == 0);
  CHECK(r.json["summary"]["seeds"] == seeds);
  if (!r.groups().empty()) {
    const Json& g = r.groups()[0];
    FAIL_CHECK("first failure: " << g["message"].get<std::string>() << "\n  replay: " << g["replay"].get<std::string>());
  }
  const auto counts = count_lines(notes);
  for (const std::string& word : p.must_note) {
    INFO("path '" << word << "' was never taken in " << seeds << " seeds (notes: " << read_file(notes).size()
                  << " bytes)");
    CHECK(counts.count(word) == 1);
  }
}

void check_primitives(const std::vector<Primitive>& primitives, std::uint64_t seeds) {
  for (const Primitive& p : primitives) {
    for (const std::string strategy : {"pct", "random"}) {
      DYNAMIC_SECTION(p.program << " --strategy " << strategy) { check_primitive_passes(p, strategy, seeds); }
    }
  }
}

}  // namespace

TEST_CASE("locks: mutexes, recursive, errorcheck and robust mutexes, timedlock, spinlocks, rwlocks, semaphores, once",
          "[primitives][locks]") {
  check_primitives({
                       {"mutex_exclusion", {}, {}},
                       {"recursive_mutex", {"waited"}, {}},
                       {"errorcheck_mutex", {}, {}},
                       {"robust_mutex", {}, {}},
                       {"timed_lock", {"acquired", "timeout"}, {}},
                       {"spinlock_exclusion", {}, {}},
                       {"rwlock_share", {"shared"}, {}},
                       {"semaphore_count", {"full"}, {}},
                       {"once_init", {}, {}},
                   },
                   250);
}

TEST_CASE("waits: condition variables, barriers, join and detach, C11 threads, C++ library", "[primitives][waits]") {
  check_primitives({
                       {"cond_broadcast", {}, {}},
                       {"cond_signal", {}, {}},
                       {"cond_timedwait", {"signalled", "timeout"}, {}},
                       {"barrier_rounds", {}, {}},
                       {"join_detach", {}, {}},
                       {"c11_threads", {}, {}},
                       {"c11_clock", {"signalled", "timeout"}, {}},
                       {"cpp_primitives", {"shared"}, {}},
                       {"spurious_loop", {}, {"--spurious-wakeups"}},
                   },
                   250);
}

TEST_CASE("--spurious-wakeups has an effect: a wait without a predicate loop fails only with it",
          "[primitives][waits]") {
  for (const std::string strategy : {"pct", "random"}) {
    DYNAMIC_SECTION("without the flag, --strategy " << strategy) {
      check_primitive_passes({"spurious_no_loop", {}, {}}, strategy, 250);
    }
    DYNAMIC_SECTION("with the flag, --strategy " << strategy) {
      TempDir dir;
      const SeedsRun r = run_seeds(dir, program("spurious_no_loop"),
                                   {"--seeds", "250", "-j2", "--strategy", strategy, "--spurious-wakeups",
                                    "--stop-after", "1"});
      INFO(r.describe());
      REQUIRE(r.json.is_object());
      CHECK(r.process.exit_code == 1);
      CHECK(r.json["summary"]["spurious_wakeups"] == true);
      REQUIRE_FALSE(r.groups().empty());
      CHECK(r.groups()[0]["kind"] == "assertion");
      CHECK(contains(r.groups()[0]["message"].get<std::string>(), "woke without the predicate"));
      // The handle says so, so the replay wakes spuriously too.
      const Json& first = r.run_of(r.groups()[0]["first_seed"].get<std::uint64_t>());
      CHECK(contains(first["handle"].get<std::string>(), ":sw"));
      const Process p = run_replay(dir, {first["handle"].get<std::string>()}, program("spurious_no_loop"));
      INFO(p.describe());
      CHECK(p.exit_code == 1);
      CHECK(contains(p.out, "replay matched schedule"));
    }
  }
}

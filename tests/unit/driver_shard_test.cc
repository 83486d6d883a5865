// --shard K/N (options/shard.h) and `ctrlsched merge` (report/merge.h): which seeds a shard runs,
// the engines' environment variables, and that merging the shard reports gives the single run's
// report back, field for field.
#include <catch2/catch.hpp>

#include <map>

#include "exit_codes.h"
#include "options/merge_command_line.h"
#include "options/shard.h"
#include "report/json_report.h"
#include "report/merge.h"
#include "report/summary.h"

using namespace ctrlsched;
using namespace ctrlsched::driver;

namespace {

EnvironmentLookup environment(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

bool usage_error_from(const std::function<void()>& f) {
  try {
    f();
  } catch (const DriverError& e) {
    return e.code() == ExitCode::Usage;
  }
  return false;
}

// A run of `count` seeds from 10 where seeds 3 mod 7 fail an assertion and seeds 5 mod 11 deadlock.
RunResult run_for(std::uint64_t seed) {
  RunResult r;
  r.seed = seed;
  r.schedule_hash = 0x1000 + seed * 7;
  r.handle = std::to_string(seed) + ":pct:d3:k50@" + format_hash(r.schedule_hash);
  r.steps = 40 + seed % 5;
  r.decisions = 9;
  r.threads = 3;
  FailureDetails f;
  if (seed % 7 == 3) {
    f.kind = r.kind = OutcomeKind::Assertion;
    f.message = "assertion `x` failed (a.c:4 in main)";
    f.file = "a.c";
    f.line = 4;
    f.function = "main";
    f.stack = {"main (a.c:4)"};
    f.signature = "assertion|a.c:4|main";
  } else if (seed % 11 == 5) {
    f.kind = r.kind = OutcomeKind::Deadlock;
    f.message = "deadlock: 2 threads blocked";
    f.details = {"T1 waits for mutex m held by T2", "T2 waits for mutex n held by T1"};
    f.signature = "deadlock|m|n";
  }
  if (r.failed()) {
    r.failure = f;
    r.output_tail = "output of seed " + std::to_string(seed);
  }
  if (seed % 13 == 0) r.note = "T1 blocked in read";
  return r;
}

Report report_of(std::uint64_t count, std::uint64_t shard_index, std::uint64_t shard_count) {
  Report report;
  ReportHeader& h = report.header;
  h.seed_start = 10;
  h.seeds_requested = count;
  h.spec.strategy = StrategyKind::Pct;
  h.spec.pct_depth = 3;
  h.spec.pct_steps = 50;
  h.pct_steps_calibrated = true;
  h.elapsed_seconds = 0.5 + static_cast<double>(shard_index);
  h.jobs = 2;
  h.test = TestCommand{"./t", {"a b"}};
  h.shard_index = shard_index;
  h.shard_count = shard_count;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (shard_count == 0 || i % shard_count == shard_index - 1) report.runs.push_back(run_for(h.seed_start + i));
  }
  finish_report(report);
  return report;
}

std::vector<ShardReport> shards_of(std::uint64_t count, std::uint64_t n) {
  std::vector<ShardReport> shards;
  for (std::uint64_t k = n; k >= 1; --k) {  // in reverse: merge must not depend on the order given
    shards.push_back(ShardReport{"shard" + std::to_string(k) + ".json", report_json(report_of(count, k, n))});
  }
  return shards;
}

nlohmann::ordered_json without_elapsed(nlohmann::ordered_json json) {
  json["summary"].erase("elapsed_s");
  return json;
}

std::string without_header(const std::string& text) { return text.substr(text.find('\n') + 1); }

}  // namespace

TEST_CASE("--shard K/N: parsing and the seeds of each shard") {
  const Shard s = parse_shard("2/4", "--shard");
  CHECK(s.index == 2);
  CHECK(s.count == 4);
  for (const char* bad : {"0/4", "5/4", "1/0", "4", "a/4", "1/-2", "/4", "1/", "2/4/1", " 1/4"}) {
    INFO(bad);
    CHECK(usage_error_from([&] { parse_shard(bad, "--shard"); }));
  }
  // Round robin: shard sizes differ by at most one and add up to the count.
  for (std::uint64_t count : {1u, 7u, 8u, 1000u}) {
    for (std::uint64_t n : {1u, 3u, 4u, 8u}) {
      std::uint64_t total = 0;
      for (std::uint64_t k = 1; k <= n; ++k) {
        const std::uint64_t in = seeds_in_shard(count, Shard{k, n});
        std::uint64_t expected = 0;
        for (std::uint64_t i = 0; i < count; ++i) expected += i % n == k - 1;
        CHECK(in == expected);
        total += in;
      }
      CHECK(total == count);
    }
  }
}

TEST_CASE("--shard auto reads the engines' variables") {
  CHECK(resolve_shard("auto", environment({{"CTRLSCHED_SHARD", "3/5"}})).index == 3);
  const Shard k8s = resolve_shard("auto", environment({{"JOB_COMPLETION_INDEX", "0"}, {"CTRLSCHED_SHARD_COUNT", "4"}}));
  CHECK((k8s.index == 1 && k8s.count == 4));
  const Shard slurm =
      resolve_shard("auto", environment({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  CHECK((slurm.index == 4 && slurm.count == 4));
  const Shard slurm1 = resolve_shard(
      "auto", environment({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  CHECK(slurm1.index == 1);
  // CTRLSCHED_SHARD wins over the engines' variables.
  CHECK(resolve_shard("auto", environment({{"CTRLSCHED_SHARD", "2/2"}, {"JOB_COMPLETION_INDEX", "0"},
                                           {"CTRLSCHED_SHARD_COUNT", "2"}}))
            .index == 2);
  CHECK(usage_error_from([] { resolve_shard("auto", environment({})); }));
  CHECK(usage_error_from([] { resolve_shard("auto", environment({{"JOB_COMPLETION_INDEX", "1"}})); }));
  CHECK(usage_error_from(
      [] { resolve_shard("auto", environment({{"JOB_COMPLETION_INDEX", "4"}, {"CTRLSCHED_SHARD_COUNT", "4"}})); }));
  CHECK(usage_error_from(
      [] { resolve_shard("auto", environment({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "4"}})); }));
  CHECK(usage_error_from([] { resolve_shard("auto", environment({{"CTRLSCHED_SHARD", "0/3"}})); }));
}

TEST_CASE("merging the shard reports gives the single run's report and summary") {
  for (std::uint64_t n : {1u, 2u, 4u, 7u}) {
    INFO(n << " shards");
    const Report single = report_of(60, 0, 0);
    const MergedReport merged = merge_shard_reports(shards_of(60, n));
    CHECK(without_elapsed(merged.json) == without_elapsed(report_json(single)));
    CHECK(merged.json["summary"]["elapsed_s"] == 0.5 + static_cast<double>(n));  // the slowest shard
    CHECK(without_header(render_summary(merged.report, false)) == without_header(render_summary(single, false)));
    CHECK(render_summary(merged.report, true) == render_summary(single, true));
    CHECK(merged.warnings.empty());
  }
}

TEST_CASE("merge keeps fields it does not know and drops localization with a warning") {
  std::vector<ShardReport> shards = shards_of(20, 2);
  for (ShardReport& shard : shards) {
    shard.json["summary"]["future_field"] = "same";
    shard.json["localization"] = {{"falcon", "per shard"}};
  }
  const MergedReport merged = merge_shard_reports(shards);
  CHECK(merged.json["summary"]["future_field"] == "same");
  CHECK_FALSE(merged.json.contains("localization"));
  CHECK(merged.warnings.size() == 1);
}

TEST_CASE("merge refuses reports that are not the shards of one run") {
  CHECK(usage_error_from([] { merge_shard_reports({}); }));
  // a shard missing
  CHECK(usage_error_from([] {
    auto shards = shards_of(20, 3);
    shards.pop_back();
    merge_shard_reports(shards);
  }));
  // a shard twice
  CHECK(usage_error_from([] {
    auto shards = shards_of(20, 2);
    shards.push_back(shards.front());
    merge_shard_reports(shards);
  }));
  // a different calibration (k)
  CHECK(usage_error_from([] {
    auto shards = shards_of(20, 2);
    shards[0].json["summary"]["pct_steps"] = 51;
    merge_shard_reports(shards);
  }));
  // different shard counts
  CHECK(usage_error_from([] {
    auto shards = shards_of(20, 2);
    shards[0].json["summary"]["shard"]["count"] = 3;
    merge_shard_reports(shards);
  }));
  // not a shard report
  CHECK(usage_error_from([] { merge_shard_reports({ShardReport{"x.json", report_json(report_of(5, 0, 0))}}); }));
  // a seed lost
  CHECK(usage_error_from([] {
    auto shards = shards_of(20, 2);
    shards[0].json["runs"].erase(shards[0].json["runs"].begin());
    merge_shard_reports(shards);
  }));
  CHECK(usage_error_from([] { merge_shard_reports({ShardReport{"x.json", nlohmann::ordered_json::array()}}); }));
}

TEST_CASE("ctrlsched merge command line") {
  const std::vector<std::string> args = {"a.json", "--json", "out.json", "b.json", "--quiet"};
  const MergeCommandLine cl = parse_merge_command_line(args);
  CHECK(cl.reports == std::vector<std::string>{"a.json", "b.json"});
  CHECK(cl.json == "out.json");
  CHECK(cl.quiet);
  CHECK(usage_error_from([] { parse_merge_command_line(std::vector<std::string>{}); }));
  CHECK(usage_error_from([] { parse_merge_command_line(std::vector<std::string>{"a.json", "--seeds", "3"}); }));
  CHECK(usage_error_from([] { parse_merge_command_line(std::vector<std::string>{"a.json", "--json"}); }));

  const MergeCommandLine stores = parse_merge_command_line(std::vector<std::string>{"--into=all.db", "a.db", "b.db"});
  CHECK(stores.into == "all.db");
  CHECK(stores.reports == std::vector<std::string>{"a.db", "b.db"});
  CHECK(usage_error_from([] { parse_merge_command_line(std::vector<std::string>{"--into", "all.db"}); }));
  CHECK(usage_error_from([] { parse_merge_command_line(std::vector<std::string>{"--into", "all.db", "--json", "x", "a.db"}); }));
  CHECK(usage_error_from([] { parse_merge_command_line(std::vector<std::string>{"--into", "a", "--into", "b", "c.db"}); }));
}

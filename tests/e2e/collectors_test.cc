// The Falcon and block-spectra collectors on real runs: the instrumented lost_update example
// run through the driver's own worker pool with the collector bits set (the `--localize` command
// line is wired elsewhere), its summaries read back, ranked and named with the real symbolizer.
#include <catch2/catch.hpp>

#include <fstream>

#include "runs/child_launch.h"
#include "ctrlsched/block_spectra.h"
#include "ctrlsched/falcon_patterns.h"
#include "e2e.h"
#include "localize/falcon_summary.h"
#include "runs/run_collect.h"
#include "runs/run_record_region.h"
#include "localize/spectra_summary.h"
#include "report/symbolizer.h"
#include "runs/worker_pool.h"

using namespace e2e;
namespace drv = ctrlsched::driver;
namespace loc = ctrlsched::localize;

namespace {

// The first line that is exactly `code` once indented (comments mentioning it do not count).
int line_exactly(const fs::path& source, const std::string& code) {
  std::ifstream in(source);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.substr(std::min(line.find_first_not_of(' '), line.size())) == code) return n;
  return -1;
}

struct Collected {
  std::vector<loc::FalconRun> falcon;
  std::vector<loc::SpectraRun> spectra;
  std::vector<std::uint32_t> finished;  // both summaries' end-of-run flags, per run
  std::vector<drv::OutcomeKind> kinds;
  std::optional<drv::RecordNames> names;
};

Collected run_collecting(const std::string& path, std::uint64_t seeds, std::uint32_t window,
                         drv::Symbolizer& symbolizer) {
  drv::LaunchTarget target{path, {path}, E2E_SHIM};
  drv::PoolOptions options;
  options.jobs = 2;
  options.timeout = std::chrono::duration<double>(30.0);
  drv::WorkerPool pool(target, options);
  drv::ClassifyContext context;
  context.symbolize = symbolizer.function();
  auto data = [&](const std::string& module, std::uint64_t offset) { return symbolizer.data_symbol(module, offset); };
  Collected out;
  out.falcon.resize(seeds);
  out.spectra.resize(seeds);
  out.finished.resize(seeds);
  out.kinds.resize(seeds);
  ctrlsched::RunSpec spec;
  pool.run(
      seeds,
      [&](std::uint64_t i) {
        ctrlsched::RunSpec s = spec;
        s.seed = i;
        drv::RunJob job{drv::run_config_for(s), {}};
        job.config.collectors = ctrlsched::kCollectFalcon | ctrlsched::kCollectSpectra;
        job.config.falcon_window = window;
        return job;
      },
      [&](const drv::FinishedRun& run) {
        ctrlsched::RunSpec s = spec;
        s.seed = run.index;
        const drv::RunResult result = drv::collect_result(run, s, context, path);
        const ctrlsched::RunRecord& record = run.region.record();
        out.kinds[run.index] = result.kind;
        if (!out.names) out.names.emplace(record, context.symbolize, data);
        auto falcon = drv::read_falcon_run(record, result.failed(), *out.names);
        auto spectra = drv::read_spectra_run(record, result.failed());
        REQUIRE(falcon.has_value());
        REQUIRE(spectra.has_value());
        out.falcon[run.index] = std::move(*falcon);
        out.spectra[run.index] = std::move(*spectra);
        const auto* base = reinterpret_cast<const std::uint8_t*>(&record);
        out.finished[run.index] =
            reinterpret_cast<const ctrlsched::FalconPatternSummary*>(base + ctrlsched::kFalconOffset)->finished +
            reinterpret_cast<const ctrlsched::BlockSpectraSummary*>(base + ctrlsched::kSpectraOffset)->finished;
        CHECK(reinterpret_cast<const ctrlsched::FalconPatternSummary*>(base + ctrlsched::kFalconOffset)->window ==
              ctrlsched::falcon_window_size(window));
        return true;
      });
  return out;
}

}  // namespace

TEST_CASE("lost_update: failing runs show R1-W2-W1 on counter at counter++, ranked first", "[collectors]") {
  const std::string path = binary("example_inst", "lost_update");
  const int line = line_exactly(examples_source_dir() / "lost_update.c", "counter++;");
  REQUIRE(line > 0);
  const std::string at = "lost_update.c:" + std::to_string(line) + " incrementer";
  drv::Symbolizer symbolizer;
  const Collected c = run_collecting(path, 40, 0, symbolizer);
  const drv::RecordNames& names = *c.names;

  std::uint32_t failing = 0;
  for (std::size_t i = 0; i < c.falcon.size(); ++i) {
    INFO("seed " << i);
    CHECK(c.finished[i] == 2);  // both end-of-run hooks ran, whether the run passed or failed
    if (!c.falcon[i].failed) continue;
    ++failing;
    // A lost update: T1 reads counter, T2 writes it, T1 writes its stale value back.
    bool found = false;
    for (const loc::FalconSighting& s : c.falcon[i].patterns)
      found |= s.id.kind == ctrlsched::FalconKind::R1W2W1 && s.location_name == "counter" &&
               names.site(s.id.sites[0]) == at && names.site(s.id.sites[1]) == at && names.site(s.id.sites[2]) == at;
    CHECK(found);
  }
  REQUIRE(failing > 0);
  REQUIRE(failing < c.falcon.size());

  const loc::FalconRanking ranking = loc::rank_falcon(c.falcon);
  REQUIRE_FALSE(ranking.patterns.empty());
  const auto& top = ranking.patterns.front();
  CHECK(top.failed == failing);
  CHECK(top.example.location_name == "counter");
  const auto lines = drv::render_falcon_text(ranking, names, 3);
  INFO(lines[0]);
  bool r1w2w1_at_top = false;
  for (const auto& p : ranking.patterns)
    if (p.rank == 1 && p.id.kind == ctrlsched::FalconKind::R1W2W1) r1w2w1_at_top = true;
  CHECK(r1w2w1_at_top);
  CHECK(contains(lines[0], "  1  "));
  CHECK(contains(lines[0], at));

  // Spectra: incrementer is the component two threads are inside at once, in every failing run.
  const auto components = loc::rank_spectra(c.spectra);
  REQUIRE_FALSE(components.empty());
  CHECK(contains(names.site(components.front().site), "incrementer"));
  CHECK(components.front().n11 == failing);
  const auto text = drv::render_spectra_text(components, failing,
                                             static_cast<std::uint32_t>(c.spectra.size()) - failing, names, 1);
  INFO(text[0]);
  CHECK(contains(text[0], "incrementer"));
}

TEST_CASE("a window of 2 keeps pairs only", "[collectors]") {
  drv::Symbolizer symbolizer;
  const Collected c = run_collecting(binary("example_inst", "lost_update"), 6, 2, symbolizer);
  for (const loc::FalconRun& run : c.falcon)
    for (const loc::FalconSighting& s : run.patterns) CHECK(ctrlsched::falcon_kind_length(s.id.kind) == 2);
}

TEST_CASE("the summaries are flushed when a run crashes or deadlocks", "[collectors]") {
  // order_violation dies of SIGSEGV (the signal handler flushes), abba_deadlock deadlocks (the
  // shim's deadlock report ends the run and flushes).
  for (const auto& [name, kind] : {std::pair{"order_violation", drv::OutcomeKind::Signal},
                                   std::pair{"abba_deadlock", drv::OutcomeKind::Deadlock}}) {
    INFO(name);
    drv::Symbolizer symbolizer;
    const Collected c = run_collecting(binary("example_inst", name), 30, 0, symbolizer);
    std::uint32_t failing = 0;
    for (std::size_t i = 0; i < c.kinds.size(); ++i) {
      INFO("seed " << i);
      CHECK(c.finished[i] == 2);
      failing += c.kinds[i] == kind;
      CHECK((c.kinds[i] == kind || c.kinds[i] == drv::OutcomeKind::Pass));
    }
    CHECK(failing > 0);
  }
}

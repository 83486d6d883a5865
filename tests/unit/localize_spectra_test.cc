// SCURF (Koca, Sozer, Abreu): the modified Ochiai ranking of components executed concurrently,
// checked against the paper's Tables 1-2 (addNumberToPhoneList, level 1) and 3-4 (pipe), the
// stopping rule and the directed-run plan.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ctrlsched/localize/spectra.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;

namespace {

// One run of a table: the "Number of Entries" columns (component j has site j + 1) and the error.
// SCURF's "multiple execution" (a_ij > 1) is our `concurrent`.
SpectraRun table_run(const std::vector<std::uint64_t>& entries, bool failed) {
  SpectraRun run;
  run.failed = failed;
  for (std::size_t j = 0; j < entries.size(); ++j) {
    ComponentObservation c;
    c.site = j + 1;
    c.entries = entries[j];
    c.threads = static_cast<std::uint32_t>(std::min<std::uint64_t>(entries[j], 3));
    c.concurrent = entries[j] > 1;
    run.components.push_back(c);
  }
  return run;
}

std::vector<double> scores_by_site(const std::vector<RankedComponent>& ranking) {
  std::vector<double> scores(ranking.size());
  for (const RankedComponent& r : ranking) scores[r.site - 1] = r.score;
  return scores;
}

// Table 1, runs 1-4 (level 1: one forced component per run).
std::vector<SpectraRun> table1_level1() {
  return {table_run({3, 3, 0, 3}, true), table_run({3, 3, 0, 3}, true), table_run({1, 1, 3, 3}, false),
          table_run({1, 1, 3, 3}, false)};
}

}  // namespace

TEST_CASE("Tables 1-2: addNumberToPhoneList at level 1 scores 1.0, 1.0, 0.0, 0.707", "[spectra][golden]") {
  const auto ranking = rank_spectra(table1_level1());
  REQUIRE(ranking.size() == 4);
  const auto scores = scores_by_site(ranking);
  CHECK(scores[0] == 1.0);
  CHECK(scores[1] == 1.0);
  CHECK(scores[2] == 0.0);
  CHECK(scores[3] == Approx(0.707).margin(0.0005));
  CHECK(scores[3] == 1 / std::sqrt(2.0));
  // n11, n10, n01 rows of Table 2, in rank order: C1, C2 (tied), C4, C3.
  std::vector<std::string> rows;
  for (const RankedComponent& r : ranking)
    rows.push_back("C" + std::to_string(r.site) + " " + std::to_string(r.n11) + std::to_string(r.n10) +
                   std::to_string(r.n01) + " #" + std::to_string(r.rank) + "/" + std::to_string(r.tied));
  CHECK(rows == std::vector<std::string>{"C1 200 #1/2", "C2 200 #1/2", "C4 220 #3/1", "C3 022 #4/1"});
  CHECK(spectra_significant(ranking, 2));  // 1.0 vs 0.707: separated by more than the margin
}

TEST_CASE("Tables 3-4: pipe at level 1, component 1 scores 1.0, all others 0.0", "[spectra][golden]") {
  std::vector<SpectraRun> runs = {table_run({2, 1, 1, 1, 1, 0}, true)};
  for (int i = 0; i < 5; ++i) runs.push_back(table_run({1, 2, 2, 2, 2, 0}, false));
  const auto ranking = rank_spectra(runs);
  CHECK(scores_by_site(ranking) == std::vector<double>{1.0, 0.0, 0.0, 0.0, 0.0, 0.0});
  CHECK(ranking[0].site == 1);
  CHECK((ranking[0].n11 == 1 && ranking[0].n10 == 0 && ranking[0].n01 == 0));
  // C2..C5: n10 = 5, n01 = 1; C6 never ran: n10 = 0, n01 = 1, and it ranks above them on n10.
  CHECK(ranking[1].site == 6);
  CHECK((ranking[1].n10 == 0 && ranking[1].n01 == 1 && ranking[1].entered_runs == 0));
  CHECK((ranking[2].site == 2 && ranking[2].n10 == 5 && ranking[2].n01 == 1));
  CHECK((ranking[1].rank == 2 && ranking[1].tied == 5));
  CHECK(spectra_significant(ranking, 1));
}

TEST_CASE("not significant without failures, with a low top score, or without separation", "[spectra]") {
  CHECK_FALSE(spectra_significant(rank_spectra(table1_level1()), 0));
  // Every component concurrent in every run: both tie at 1/sqrt(2), nothing below them.
  const std::vector<SpectraRun> flat = {table_run({2, 2}, true), table_run({2, 2}, false)};
  const auto ranking = rank_spectra(flat);
  CHECK(ranking[0].tied == 2);
  CHECK(spectra_significant(ranking, 1));  // 0.707 >= 0.5 and nothing to be separated from
  CHECK_FALSE(spectra_significant(ranking, 1, {.min_top_score = 0.8, .margin = 0.25}));
  const std::vector<SpectraRun> close = {table_run({2, 2}, true), table_run({2, 1}, true), table_run({2, 1}, false)};
  const auto close_ranking = rank_spectra(close);
  CHECK(close_ranking[0].score == Approx(2 / std::sqrt(6.0)));
  CHECK(close_ranking[1].score == Approx(1 / std::sqrt(2.0)));
  CHECK_FALSE(spectra_significant(close_ranking, 2));  // 0.816 vs 0.707
  CHECK(modified_ochiai(0, 0, 0) == 0.0);
}

TEST_CASE("candidates: components two threads entered first, each group in ranking order", "[spectra][plan]") {
  std::vector<SpectraRun> runs = table1_level1();
  runs[0].components[1].threads = 1;  // C2: one thread only in every run
  runs[1].components[1].threads = 1;
  runs[2].components[1].threads = 1;
  runs[3].components[1].threads = 1;
  CHECK(spectra_candidates(runs) == std::vector<std::uint64_t>{1, 4, 3, 2});
}

TEST_CASE("level 1 forces one component per directive, level 2 each pair, within the budget", "[spectra][plan]") {
  const std::vector<std::uint64_t> components = {11, 22, 33};
  const auto level1 = plan_spectra_level(components, 1, 2, 5);
  REQUIRE(level1.size() == 3);
  CHECK(level1[0].directive.kind == static_cast<std::uint32_t>(ForceKind::SwitchAtEntry));
  CHECK(level1[0].directive.count == 1);
  CHECK(level1[0].directive.steps[0].site == 11);
  CHECK(level1[0].directive.steps[0].access == static_cast<std::uint8_t>(ForceAccess::Entry));
  CHECK(level1[2].directive.steps[0].site == 33);
  CHECK((level1[0].seeds == 2 && level1[1].seeds == 2 && level1[2].seeds == 1));
  CHECK(level1[0].level == 1);

  const auto level2 = plan_spectra_level(components, 2, 1, 100);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  for (const PlannedDirective& p : level2) {
    REQUIRE(p.directive.count == 2);
    pairs.emplace_back(p.directive.steps[0].site, p.directive.steps[1].site);
  }
  CHECK(pairs == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{11, 22}, {11, 33}, {22, 33}});
  CHECK(plan_spectra_level(components, 2, 1, 2).size() == 2);
  CHECK(plan_spectra_level(components, 1, 1, 0).empty());
  CHECK(plan_spectra_level(components, 3, 1, 10).empty());
}

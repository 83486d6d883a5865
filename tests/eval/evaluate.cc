// ctrlsched_evaluate: runs the localization pipeline on every example of examples/root_causes.txt
// and prints one Markdown table per example (docs/evaluation.md): Locon's first finding on one
// failing run + 100 passing runs, Falcon's rank of the true pattern on the same data and on all
// runs, forced reproduction rates of the true pattern and of the best wrong candidate, and
// preemptions before and after shrinking a random-strategy failure.
//
//   ctrlsched_evaluate --ctrlsched build/bin/ctrlsched --bin-dir build/bin
//                      --root-causes examples/root_causes.txt --work DIR [--seeds N]
//
// Corpus mode (corpus_evaluation.h): the programs of tests/eval/corpus with their truth headers,
//   ctrlsched_evaluate --ctrlsched build/bin/ctrlsched --corpus tests/eval/corpus
//                      --bin-dir build/tests/eval/corpus/bin --work DIR [--seeds 1000]
//                      [--only a,b] [--jobs N] [--summary-json FILE] [--reuse-reports yes]
//                      [--strict-truth yes]   (judge without truth.h's "report that says more")
//                      [--strategy pct|portfolio]   (the seeds run's strategy; pct by default)
//
// Every run uses fixed seeds, so the tables are deterministic. "True" is defined in the header
// of root_causes.txt (truth.h).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "corpus_evaluation.h"
#include "process.h"
#include "truth.h"

namespace {

using nlohmann::json;
using ctrlsched::eval::ReportedSide;
using ctrlsched::eval::read_json;
using ctrlsched::eval::read_text;
using ctrlsched::eval::run_shell;
using ctrlsched::eval::shell_quoted;

struct Settings {
  std::string ctrlsched = "ctrlsched";
  std::string bin_dir = ".";
  std::string root_causes = "examples/root_causes.txt";
  std::string work = "evaluation";
  std::uint64_t seeds = 300;
};

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * fraction);
  return buffer;
}

// A pattern or pair some technique reported, with what forcing it showed (if it was forced).
struct Candidate {
  std::string source;  // "Falcon #2", "Locon #1", "ConSeq #1"
  std::string text;    // short: kind and lines
  std::vector<ReportedSide> sides;
  bool is_true = false;
  std::optional<json> confirmation;
};

std::string line_of(const ReportedSide& side) { return std::to_string(side.line); }

std::string short_text(const std::string& kind, const std::vector<ReportedSide>& sides) {
  std::string text = kind.empty() ? "" : kind + " ";
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (i > 0) text += "→";
    text += kind.empty() ? sides[i].kind_text() + "@" + line_of(sides[i]) : line_of(sides[i]);
  }
  return text;
}

Candidate falcon_candidate(const json& pattern, const std::string& example, const ctrlsched::eval::Truth& truth) {
  Candidate c;
  c.source = "Falcon #" + std::to_string(pattern.value("rank", 0));
  for (const json& access : pattern["accesses"]) {
    c.sides.push_back(ctrlsched::eval::falcon_side(access.value("access", ""), access.value("role", 0),
                                                   access.value("site", "")));
  }
  const std::string location = pattern.value("location", "");
  c.text = short_text(pattern.value("kind", ""), c.sides) + " " + location;
  c.is_true = truth.is_true(example, c.sides, location);
  if (pattern.contains("confirmation") && pattern["confirmation"].is_object()) c.confirmation = pattern["confirmation"];
  return c;
}

struct FalconStanding {
  std::string text;
  std::optional<int> true_rank;
};

FalconStanding falcon_standing(const json& ranking, const std::string& example, const ctrlsched::eval::Truth& truth) {
  FalconStanding standing;
  int at_rank_one = 0, true_at_rank_one = 0;
  std::string first_true;
  for (const json& pattern : ranking["patterns"]) {
    const Candidate c = falcon_candidate(pattern, example, truth);
    if (pattern.value("rank", 0) == 1) {
      ++at_rank_one;
      true_at_rank_one += c.is_true;
    }
    if (c.is_true && !standing.true_rank) {
      standing.true_rank = pattern.value("rank", 0);
      char score[32];
      std::snprintf(score, sizeof score, "%.2f", pattern.value("score", 0.0));
      first_true = "`" + c.text + "` score " + score + ", failing " + std::to_string(pattern.value("failed", 0)) +
                   "/" + std::to_string(ranking.value("failing", 0)) + ", passing " +
                   std::to_string(pattern.value("passed", 0)) + "/" + std::to_string(ranking.value("passing", 0));
    }
  }
  if (standing.true_rank) {
    standing.text = "true pattern at rank " + std::to_string(*standing.true_rank) + " (" + first_true + ")";
  } else {
    standing.text = "no true pattern among " + std::to_string(ranking["patterns"].size());
  }
  standing.text += "; rank 1: " + std::to_string(at_rank_one) + " pattern" + (at_rank_one == 1 ? "" : "s") + ", " +
                   std::to_string(true_at_rank_one) + " true";
  return standing;
}

std::string forced_text(const Candidate& c) {
  const json& k = *c.confirmation;
  return c.source + " `" + c.text + "`: " + std::to_string(k.value("failed", 0)) + "/" +
         std::to_string(k.value("forced_runs", 0)) + " " + k.value("verdict", "") + " (order achieved in " +
         std::to_string(k.value("completed", 0)) + ")";
}

struct ShrinkResult {
  std::string handle;
  std::string text = "no failing seed";
};

ShrinkResult shrink_first_failure(const Settings& s, const std::string& binary, const std::string& dir) {
  ShrinkResult result;
  const std::string report = dir + "/random.json";
  run_shell(shell_quoted(s.ctrlsched) + " --seeds " + std::to_string(s.seeds) + " --strategy random --quiet --json " +
            shell_quoted(report) + " " + shell_quoted(binary) + " > /dev/null 2>&1");
  const auto json_report = read_json(report);
  if (!json_report) return result;
  for (const json& run : (*json_report)["runs"]) {
    if (run.value("outcome", "pass") != "pass") {
      result.handle = run.value("handle", "");
      break;
    }
  }
  if (result.handle.empty()) return result;
  const std::string out = dir + "/shrink.txt";
  run_shell("cd " + shell_quoted(dir) + " && " + shell_quoted(s.ctrlsched) + " shrink " + shell_quoted(result.handle) + " " +
            shell_quoted(binary) + " > " + shell_quoted(out) + " 2>&1");
  const std::string text = read_text(out);
  const auto at = text.find("preemptions: ");
  if (at == std::string::npos) {
    result.text = "shrink failed (see " + out + ")";
    return result;
  }
  const auto end = text.find(" ·", at);
  result.text = text.substr(at + 13, end - at - 13) + " (`" + result.handle + "`)";
  return result;
}

void evaluate(const Settings& s, const ctrlsched::eval::Truth& truth, const std::string& example) {
  const std::string binary = s.bin_dir + "/" + example + "_instrumented";
  const std::string dir = s.work + "/" + example;
  std::filesystem::create_directories(dir);
  // Pinned to pct (the default before the portfolio, docs/strategies.md): the tables in
  // docs/evaluation.md and the e2e floors were measured with it.
  std::string strategy = "pct";
  std::string report_path = dir + "/localize.json";
  const std::string base = shell_quoted(s.ctrlsched) + " --seeds " + std::to_string(s.seeds) + " --localize --no-save";
  run_shell(base + " --strategy pct --json " + shell_quoted(report_path) + " " + shell_quoted(binary) + " > " + shell_quoted(dir + "/localize.txt") +
            " 2>&1");
  auto report = read_json(report_path);
  if (report && (*report)["localization"].value("failing", 0) == 0) {
    // pct with its default depth misses bugs that need two preemptions: fall back to random.
    strategy = "random (pct found no failure)";
    report_path = dir + "/localize-random.json";
    run_shell(base + " --strategy random --json " + shell_quoted(report_path) + " " + shell_quoted(binary) + " > " +
              shell_quoted(dir + "/localize-random.txt") + " 2>&1");
    report = read_json(report_path);
  }
  std::cout << "### " << example << "\n\n| | |\n|---|---|\n";
  if (!report || !report->contains("localization")) {
    std::cout << "| error | no localization report (" << report_path << ") |\n\n";
    return;
  }
  const json& loc = (*report)["localization"];
  std::cout << "| runs | " << loc.value("runs", 0) << " seeds, " << strategy << ", " << loc.value("failing", 0)
            << " failing (baseline " << percent(loc.value("baseline_rate", 0.0)) << ") |\n";
  std::vector<Candidate> forced;
  if (loc.contains("locon")) {
    const json& locon = loc["locon"];
    std::cout << "| Locon data set | failing seed " << locon.value("failing_seed", 0) << " + "
              << locon.value("passing_runs", 0) << " passing runs |\n";
    std::cout << "| Locon first finding | ";
    if (locon["findings"].empty()) {
      std::cout << "none |\n";
    } else {
      const json& finding = locon["findings"][0];
      Candidate c;
      c.source = "Locon #1";
      std::vector<std::vector<ReportedSide>> finding_pairs;
      for (const json& pair : finding["pairs"]) {
        std::vector<ReportedSide> sides = {ctrlsched::eval::locon_side(pair["head"].value("kind", ""), 1, pair["head"].value("site", "")),
                                           ctrlsched::eval::locon_side(pair["tail"].value("kind", ""), 2, pair["tail"].value("site", ""))};
        const bool pair_true = truth.is_true(example, sides, "");
        if (c.sides.empty()) c.sides = sides;
        finding_pairs.push_back(sides);
        if (!c.text.empty()) c.text += ", partner ";
        c.text += short_text("", sides) + (pair_true ? " (true)" : " (not true)");
      }
      c.is_true = truth.is_true_finding(example, finding_pairs);
      if (finding.contains("confirmation") && finding["confirmation"].is_object()) c.confirmation = finding["confirmation"];
      std::cout << "procedure " << finding.value("procedure", "") << ", " << finding.value("level", "")
                << " level: `" << c.text << "` — " << (c.is_true ? "**true**" : "not true") << " |\n";
      forced.push_back(c);
    }
    std::cout << "| Falcon, same data | " << falcon_standing(loc["falcon_one_failure"], example, truth).text << " |\n";
  }
  if (loc.contains("falcon")) {
    std::cout << "| Falcon, all " << loc.value("runs", 0) << " runs | "
              << falcon_standing(loc["falcon"], example, truth).text << " |\n";
    std::vector<Candidate> falcon_forced;
    for (const json& pattern : loc["falcon"]["patterns"]) {
      Candidate c = falcon_candidate(pattern, example, truth);
      if (c.confirmation) falcon_forced.push_back(c);
    }
    forced.insert(forced.begin(), falcon_forced.begin(), falcon_forced.end());
  }
  const json& prediction = loc["prediction"];
  if (prediction.contains("confirmations")) {
    for (std::size_t i = 0; i < prediction["confirmations"].size() && i < prediction["orders"].size(); ++i) {
      const std::string text = prediction["orders"][i].value("text", "");
      Candidate c;
      c.source = "ConSeq #" + std::to_string(i + 1);
      c.sides = ctrlsched::eval::conseq_sides(text);
      c.text = short_text("", c.sides);
      c.is_true = truth.is_true(example, c.sides, "");
      if (prediction["confirmations"][i].is_object()) c.confirmation = prediction["confirmations"][i];
      forced.push_back(c);
    }
  }
  const Candidate* best_true = nullptr;
  const Candidate* best_wrong = nullptr;
  for (const Candidate& c : forced) {
    if (!c.confirmation) continue;
    if (c.is_true && best_true == nullptr) best_true = &c;
    if (!c.is_true && best_wrong == nullptr) best_wrong = &c;
  }
  std::cout << "| forced: true pattern | " << (best_true ? forced_text(*best_true) : "none forced") << " |\n";
  std::cout << "| forced: best wrong candidate | " << (best_wrong ? forced_text(*best_wrong) : "none forced") << " |\n";
  std::string all;
  for (const Candidate& c : forced) {
    if (!c.confirmation) continue;
    const json& k = *c.confirmation;
    if (!all.empty()) all += "; ";
    all += c.source + (c.is_true ? " true " : " wrong ") + std::to_string(k.value("failed", 0)) + "/" +
           std::to_string(k.value("forced_runs", 0)) + " " + k.value("verdict", "");
  }
  std::cout << "| every forced candidate | " << (all.empty() ? "none" : all) << " |\n";
  const ShrinkResult shrink = shrink_first_failure(s, binary, dir);
  std::cout << "| preemptions before → after shrink | " << shrink.text << " |\n\n";
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  ctrlsched::eval::CorpusSettings corpus;
  bool seeds_given = false;
  const char* const usage =
      "usage: ctrlsched_evaluate --ctrlsched CTRLSCHED --bin-dir DIR --root-causes FILE --work DIR [--seeds N]\n"
      "       ctrlsched_evaluate --ctrlsched CTRLSCHED --corpus DIR --bin-dir DIR --work DIR [--seeds N]\n"
      "           [--only a,b] [--jobs N] [--summary-json FILE] [--reuse-reports yes] [--strict-truth yes]\n"
      "           [--strategy pct|portfolio]\n"
      "(docs/evaluation.md, \"How to reproduce\")\n";
  for (int i = 1; i < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--help" || option == "-h") {
      std::cout << usage;
      return 0;
    }
    if (i + 1 >= argc) {
      std::cerr << "ctrlsched_evaluate: " << option << " needs a value\n" << usage;
      return 2;
    }
    const std::string value = argv[i + 1];
    if (option == "--seeds" && (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)) {
      std::cerr << "ctrlsched_evaluate: --seeds wants a number of seeds, not '" << value << "'\n";
      return 2;
    }
    if (option == "--ctrlsched") s.ctrlsched = value;
    else if (option == "--bin-dir") s.bin_dir = value;
    else if (option == "--root-causes") s.root_causes = value;
    else if (option == "--work") s.work = value;
    else if (option == "--seeds") s.seeds = std::stoull(value), seeds_given = true;
    else if (option == "--corpus") corpus.source_dir = value;
    else if (option == "--only") corpus.only = value;
    else if (option == "--jobs") corpus.jobs = value;
    else if (option == "--summary-json") corpus.summary_json = value;
    else if (option == "--reuse-reports") corpus.reuse_reports = value == "yes";
    else if (option == "--strict-truth") corpus.strict_truth = value == "yes";
    else if (option == "--strategy" && (value == "pct" || value == "portfolio")) corpus.strategy = value;
    else {
      std::cerr << "ctrlsched_evaluate: unknown option " << option << " " << value << "\n" << usage;
      return 2;
    }
  }
  // Shrinking runs in the example's work directory (it writes its schedule there).
  for (std::string* path : {&s.ctrlsched, &s.bin_dir, &s.work}) {
    if (path->find('/') != std::string::npos) *path = std::filesystem::absolute(*path).string();
  }
  if (!corpus.source_dir.empty()) {
    corpus.ctrlsched = s.ctrlsched;
    corpus.bin_dir = s.bin_dir;
    corpus.work = s.work;
    corpus.seeds = seeds_given ? s.seeds : corpus.seeds;
    return ctrlsched::eval::evaluate_corpus(corpus, std::cout);
  }
  std::ifstream in(s.root_causes);
  if (!in) {
    std::cerr << "ctrlsched_evaluate: cannot read " << s.root_causes << "\n";
    return 2;
  }
  const ctrlsched::eval::Truth truth = ctrlsched::eval::Truth::parse(in);
  for (const std::string& example : truth.examples()) evaluate(s, truth, example);
  return 0;
}

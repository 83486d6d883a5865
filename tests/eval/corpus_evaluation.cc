// The corpus evaluation: per program one `ctrlsched --seeds N --localize --json` run on its
// instrumented build, judged against the program's `ctrlsched-truth:` header with the rule of
// truth.h. Verdict strings are read generically from the `confirmation` objects: a verdict this
// file does not know is counted under its own name, never an error.
#include "corpus_evaluation.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process.h"
#include "truth.h"

namespace ctrlsched::eval {
namespace {

using nlohmann::json;

std::string fraction(int part, int whole) {
  char buffer[64];
  if (whole == 0) {
    std::snprintf(buffer, sizeof buffer, "%d/0", part);
  } else {
    std::snprintf(buffer, sizeof buffer, "%d/%d (%.0f%%)", part, whole, 100.0 * part / whole);
  }
  return buffer;
}

std::string sides_text(const std::vector<ReportedSide>& sides) {
  std::string text;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (i > 0) text += "→";
    text += sides[i].kind_text() + std::to_string(sides[i].role) + "@" + std::to_string(sides[i].line);
  }
  return text;
}

// A reported pattern, pair or order that was forced, with its verdict.
struct Forced {
  std::string source;  // "Falcon #1", "Locon #1", "ConSeq #2"
  std::string text;
  bool is_true = false;
  std::string verdict;
  json confirmation;
};

// Where Falcon put the true cause in one ranking.
struct FalconResult {
  bool present = false;
  std::optional<int> true_rank;
  int at_rank_one = 0;
  int true_at_rank_one = 0;
  int patterns = 0;
};

struct ProgramResult {
  ProgramTruth truth;
  std::string error;  // no usable report
  std::string strategy;  // "default", or "random" when the default strategy found no failure
  int runs = 0;
  int failing = 0;
  std::optional<int> first_seed;
  std::string first_kind;
  FalconResult falcon_all, falcon_one;
  bool has_locon = false;
  std::string locon_text = "none";
  bool locon_true = false;
  std::string conseq_text = "none";
  bool conseq_true = false;
  bool has_cycle = false;  // the report has a lock-order cycle (a deadlock on locks)
  std::string cycle_text;
  bool cycle_true = false;
  std::vector<Forced> forced;
};

std::vector<ReportedSide> falcon_sides(const json& pattern) {
  std::vector<ReportedSide> sides;
  for (const json& access : pattern.value("accesses", json::array())) {
    sides.push_back(falcon_side(access.value("access", ""), access.value("role", 0), access.value("site", "")));
  }
  return sides;
}

// The report's `lock_cycle.threads[]` (docs/json-schema.md) as the judge takes them.
std::vector<Truth::CycleThread> cycle_threads(const json& cycle) {
  std::vector<Truth::CycleThread> threads;
  for (const json& t : cycle.value("threads", json::array())) {
    Truth::CycleThread thread;
    thread.holds = t.value("holds", "");
    thread.waits_for = t.value("waits_for", "");
    thread.acquired = falcon_side("lock", static_cast<int>(threads.size()) + 1, t.value("acquired_at", ""));
    thread.waits = falcon_side("lock", static_cast<int>(threads.size()) + 1, t.value("waits_at", ""));
    threads.push_back(thread);
  }
  return threads;
}

std::string cycle_text(const std::vector<Truth::CycleThread>& threads) {
  std::string text;
  for (std::size_t i = 0; i < threads.size(); ++i) {
    const Truth::CycleThread& t = threads[i];
    text += (i == 0 ? "" : "; ") + std::string("T") + std::to_string(i + 1) + " holds " + t.holds + "@" +
            std::to_string(t.acquired.line) + ", waits " + t.waits_for + "@" + std::to_string(t.waits.line);
  }
  return text;
}

std::string falcon_text(const json& pattern, const std::vector<ReportedSide>& sides) {
  return pattern.value("kind", "") + " " + sides_text(sides) + " " + pattern.value("location", "");
}

FalconResult judge_falcon(const json& ranking, const Truth& truth, const std::string& name) {
  FalconResult result;
  if (!ranking.is_object()) return result;
  result.present = true;
  for (const json& pattern : ranking.value("patterns", json::array())) {
    ++result.patterns;
    const bool is_true = truth.is_true(name, falcon_sides(pattern), pattern.value("location", ""));
    const int rank = pattern.value("rank", 0);
    if (rank == 1) {
      ++result.at_rank_one;
      result.true_at_rank_one += is_true;
    }
    if (is_true && !result.true_rank) result.true_rank = rank;
  }
  return result;
}

std::string falcon_cell(const FalconResult& f) {
  if (!f.present) return "—";
  std::string text = f.true_rank ? "rank " + std::to_string(*f.true_rank) : "not ranked (" + std::to_string(f.patterns) + " patterns)";
  if (f.at_rank_one > 1) text += ", rank 1 shared by " + std::to_string(f.at_rank_one);
  return text;
}

void add_forced(ProgramResult& r, const std::string& source, const std::string& text, bool is_true, const json& holder,
                const char* key) {
  if (!holder.contains(key) || !holder[key].is_object()) return;
  const json& confirmation = holder[key];
  r.forced.push_back({source, text, is_true, confirmation.value("verdict", "(none)"), confirmation});
}

// The verdict's evidence as the report gives it; fields this file does not know are printed as
// they come, so new evidence shows up without a change here.
std::string evidence_text(const json& k) {
  std::string text = std::to_string(k.value("failed", 0)) + "/" + std::to_string(k.value("forced_runs", 0)) +
                     " failed the same way, order completed in " + std::to_string(k.value("completed", 0));
  if (k.value("failed_incomplete", 0) > 0) text += ", " + std::to_string(k.value("failed_incomplete", 0)) + " failed before it completed";
  if (k.value("failed_other", 0) > 0) text += ", " + std::to_string(k.value("failed_other", 0)) + " failed otherwise";
  static const std::set<std::string> known = {"verdict", "failed", "forced_runs", "completed", "failed_incomplete",
                                              "failed_other", "baseline_rate", "refuted", "failing_seed",
                                              "schedule", "replay"};
  for (const auto& [key, value] : k.items()) {
    if (known.count(key) != 0) continue;
    text += "; " + key + ": " + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return text;
}

ProgramResult evaluate_program(const CorpusSettings& s, const Truth& truth, const ProgramTruth& program) {
  ProgramResult r;
  r.truth = program;
  const std::string dir = s.work + "/" + program.name;
  std::filesystem::create_directories(dir);
  // pct first (the default before the portfolio; the tables and e2e floors were measured with it,
  // so it stays pinned here and keeps the label "default"); if no seed fails, random (pct's
  // default depth does not reach bugs that need three preemptions), as the examples' evaluation does.
  std::optional<json> report;
  std::string report_path;
  for (const std::string strategy : {"", "random"}) {
    report_path = dir + "/localize" + (strategy.empty() ? "" : "-" + strategy) + ".json";
    if (s.reuse_reports && std::filesystem::exists(report_path)) {
      report = read_json(report_path);
      r.strategy = strategy.empty() ? "default" : strategy;
      if (!report || !report->contains("runs")) break;
      bool failed = false;
      for (const json& run : (*report)["runs"]) failed = failed || run.value("outcome", "pass") != "pass";
      if (failed) break;
      continue;
    }
    std::filesystem::remove(report_path);
    std::string command = shell_quoted(s.ctrlsched) + " --seeds " + std::to_string(s.seeds) + " --localize --no-save";
    command += " --strategy " + (strategy.empty() ? s.strategy : strategy);
    if (!s.jobs.empty()) command += " -j " + s.jobs;
    command += " --json " + shell_quoted(report_path) + " " + shell_quoted(s.bin_dir + "/" + program.name + "_instrumented") +
               " > " + shell_quoted(dir + "/localize" + (strategy.empty() ? "" : "-" + strategy) + ".txt") + " 2>&1";
    run_shell(command);
    report = read_json(report_path);
    r.strategy = strategy.empty() ? "default" : strategy;
    if (!report || !report->contains("runs")) break;
    bool failed = false;
    for (const json& run : (*report)["runs"]) failed = failed || run.value("outcome", "pass") != "pass";
    if (failed) break;
  }
  if (!report || !report->contains("runs")) {
    r.error = "no report (" + report_path + ")";
    return r;
  }
  for (const json& run : (*report)["runs"]) {
    ++r.runs;
    if (run.value("outcome", "pass") == "pass") continue;
    ++r.failing;
    if (!r.first_seed) {
      r.first_seed = run.value("seed", 0);
      r.first_kind = run.value("kind", "");
    }
  }
  if (!report->contains("localization")) return r;
  const json& loc = (*report)["localization"];
  r.falcon_all = judge_falcon(loc.value("falcon", json()), truth, program.name);
  r.falcon_one = judge_falcon(loc.value("falcon_one_failure", json()), truth, program.name);
  if (loc.contains("falcon") && loc["falcon"].is_object()) {
    for (const json& pattern : loc["falcon"].value("patterns", json::array())) {
      const auto sides = falcon_sides(pattern);
      add_forced(r, "Falcon #" + std::to_string(pattern.value("rank", 0)), falcon_text(pattern, sides),
                 truth.is_true(program.name, sides, pattern.value("location", "")), pattern, "confirmation");
    }
  }
  if (loc.contains("locon") && loc["locon"].is_object()) {
    r.has_locon = true;
    const json findings = loc["locon"].value("findings", json::array());
    if (!findings.empty()) {
      const json& finding = findings[0];
      std::string pairs;
      std::vector<std::vector<ReportedSide>> finding_pairs;
      for (const json& pair : finding.value("pairs", json::array())) {
        const std::vector<ReportedSide> sides = {
            locon_side(pair["head"].value("kind", ""), 1, pair["head"].value("site", "")),
            locon_side(pair["tail"].value("kind", ""), 2, pair["tail"].value("site", ""))};
        const bool pair_true = truth.is_true(program.name, sides, "");
        finding_pairs.push_back(sides);
        pairs += (pairs.empty() ? "" : ", ") + sides_text(sides) + (pair_true ? " (true)" : "");
      }
      r.locon_true = truth.is_true_finding(program.name, finding_pairs);
      r.locon_text = "procedure " + finding.value("procedure", "?") + ", " + finding.value("level", "?") + " level: `" + pairs + "`";
      add_forced(r, "Locon #1", pairs, r.locon_true, finding, "confirmation");
    }
  }
  if (loc.contains("lock_cycle") && loc["lock_cycle"].is_object()) {
    // The lock-order-cycle explanation of a deadlock is a candidate too: judged by
    // Truth::is_true_cycle, and counted with the forced ones if the report ever forces it.
    const std::vector<Truth::CycleThread> threads = cycle_threads(loc["lock_cycle"]);
    r.has_cycle = true;
    r.cycle_true = truth.is_true_cycle(program.name, threads);
    r.cycle_text = cycle_text(threads);
    add_forced(r, "lock cycle", r.cycle_text, r.cycle_true, loc["lock_cycle"], "confirmation");
  }
  if (loc.contains("prediction") && loc["prediction"].is_object()) {
    const json& prediction = loc["prediction"];
    const json orders = prediction.value("orders", json::array());
    const json confirmations = prediction.value("confirmations", json::array());
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const auto sides = conseq_sides(orders[i].value("text", ""));
      const bool is_true = truth.is_true(program.name, sides, "");
      if (i == 0) {
        r.conseq_text = "`" + sides_text(sides) + "`" + (is_true ? " (true)" : "");
        r.conseq_true = is_true;
      }
      if (i < confirmations.size()) {
        json holder = {{"confirmation", confirmations[i]}};
        add_forced(r, "ConSeq #" + std::to_string(i + 1), sides_text(sides), is_true, holder, "confirmation");
      }
    }
    if (orders.empty() && prediction.value("problem", json()).is_string()) {
      r.conseq_text = "none: " + prediction["problem"].get<std::string>();
    }
  }
  return r;
}

struct Summary {
  int programs = 0, found = 0, found_expected_kind = 0, found_by_random = 0;
  int falcon_rank_one_true = 0, falcon_rank_one_true_tied = 0;
  int falcon_one_rank_one_true = 0;
  int locon_programs = 0, locon_true = 0;
  int cycle_programs = 0, cycle_true = 0;
  int forced_true = 0, forced_wrong = 0;
  std::map<std::string, int> true_verdicts, wrong_verdicts;
  int refuted_never_completed = 0;
};

Summary summarize(const std::vector<ProgramResult>& results) {
  Summary s;
  for (const ProgramResult& r : results) {
    ++s.programs;
    if (r.first_seed) {
      ++s.found;
      s.found_expected_kind += r.first_kind == r.truth.fails;
      s.found_by_random += r.strategy == "random";
    }
    if (r.falcon_all.true_at_rank_one > 0) {
      ++s.falcon_rank_one_true;
      // Tied: a pattern that is not true shares rank 1 (a lock-order cycle's two halves, both
      // true, tie without leaving the user a choice to make).
      s.falcon_rank_one_true_tied += r.falcon_all.at_rank_one > r.falcon_all.true_at_rank_one;
    }
    s.falcon_one_rank_one_true += r.falcon_one.true_at_rank_one > 0;
    if (r.has_locon) {
      ++s.locon_programs;
      s.locon_true += r.locon_true;
    }
    if (r.has_cycle) {
      ++s.cycle_programs;
      s.cycle_true += r.cycle_true;
    }
    for (const Forced& f : r.forced) {
      (f.is_true ? s.forced_true : s.forced_wrong) += 1;
      (f.is_true ? s.true_verdicts : s.wrong_verdicts)[f.verdict] += 1;
      if (f.verdict == "refuted" && f.confirmation.contains("completed") && f.confirmation.value("completed", -1) == 0) {
        ++s.refuted_never_completed;
      }
    }
  }
  return s;
}

int count_of(const std::map<std::string, int>& counts, const std::string& key) {
  const auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

std::string other_verdicts(const std::map<std::string, int>& counts) {
  std::string text;
  for (const auto& [verdict, n] : counts) {
    if (verdict == "confirmed" || verdict == "refuted") continue;
    text += (text.empty() ? "" : ", ") + std::to_string(n) + " `" + verdict + "`";
  }
  return text.empty() ? "" : "; " + text;
}

void print_summary(const Summary& s, std::uint64_t seeds, std::ostream& out) {
  out << "| row | measured |\n|---|---|\n";
  out << "| bug found within " << seeds << " seeds | " << fraction(s.found, s.programs) << "; "
      << s.found_expected_kind << " with the header's failure kind; " << s.found_by_random
      << " only by the random strategy (the default found none) |\n";
  out << "| Falcon rank-1 pattern is the true cause (all runs) | " << fraction(s.falcon_rank_one_true, s.programs)
      << "; " << s.falcon_rank_one_true_tied << " of them tied at rank 1 with a wrong pattern |\n";
  out << "| Falcon rank-1 pattern is the true cause (one failing run + 100 passing) | "
      << fraction(s.falcon_one_rank_one_true, s.programs) << " |\n";
  out << "| Locon's first finding (one failing run + 100 passing) is the true cause | "
      << fraction(s.locon_true, s.locon_programs) << " (programs with a failing run) |\n";
  out << "| the lock-order cycle of a deadlock is the true cause | " << fraction(s.cycle_true, s.cycle_programs)
      << " (programs whose report has a `lock_cycle`) |\n";
  out << "| a forced TRUE pattern is `confirmed` | " << fraction(count_of(s.true_verdicts, "confirmed"), s.forced_true)
      << "; " << count_of(s.true_verdicts, "refuted") << "/" << s.forced_true << " `refuted`"
      << other_verdicts(s.true_verdicts) << " |\n";
  out << "| a forced FALSE pattern is `confirmed` | " << fraction(count_of(s.wrong_verdicts, "confirmed"), s.forced_wrong)
      << "; " << count_of(s.wrong_verdicts, "refuted") << "/" << s.forced_wrong << " `refuted`"
      << other_verdicts(s.wrong_verdicts) << " |\n";
  out << "| `refuted` given to a pattern whose forced order never completed in any forced run | "
      << s.refuted_never_completed << " pattern" << (s.refuted_never_completed == 1 ? "" : "s") << " |\n\n";
}

json summary_json(const Summary& s, std::uint64_t seeds) {
  return {{"seeds", seeds},
          {"programs", s.programs},
          {"found", s.found},
          {"found_expected_kind", s.found_expected_kind},
          {"found_by_random", s.found_by_random},
          {"falcon_rank_one_true", s.falcon_rank_one_true},
          {"falcon_rank_one_true_tied", s.falcon_rank_one_true_tied},
          {"falcon_one_failure_rank_one_true", s.falcon_one_rank_one_true},
          {"locon_programs", s.locon_programs},
          {"locon_true", s.locon_true},
          {"lock_cycle_programs", s.cycle_programs},
          {"lock_cycle_true", s.cycle_true},
          {"forced_true", s.forced_true},
          {"forced_true_verdicts", s.true_verdicts},
          {"forced_wrong", s.forced_wrong},
          {"forced_wrong_verdicts", s.wrong_verdicts},
          {"refuted_never_completed", s.refuted_never_completed}};
}

void print_program_rows(const std::vector<ProgramResult>& results, std::ostream& out) {
  out << "| program | class | fails | found: failing runs, first seed (kind) | Falcon: true cause, all runs | "
         "Falcon: true cause, one failure + 100 passing | Locon's first finding | ConSeq's first prediction |\n";
  out << "|---|---|---|---|---|---|---|---|\n";
  for (const ProgramResult& r : results) {
    out << "| " << r.truth.name << " | " << r.truth.bug_class << " | " << r.truth.fails << " | ";
    if (!r.error.empty()) {
      out << r.error << " | | | | |\n";
      continue;
    }
    if (r.first_seed) {
      out << r.failing << "/" << r.runs << ", seed " << *r.first_seed << " (" << r.first_kind << ")";
      if (r.strategy != "default") out << ", " << r.strategy << " strategy";
    } else {
      out << "**not found** (0/" << r.runs << ")";
    }
    out << " | " << falcon_cell(r.falcon_all) << " | " << falcon_cell(r.falcon_one) << " | ";
    out << (r.has_locon ? r.locon_text + (r.locon_true ? " — **true**" : "") : "—") << " | ";
    out << r.conseq_text << " |\n";
  }
  out << "\n";
}

void print_cycles(const std::vector<ProgramResult>& results, std::ostream& out) {
  bool any = false;
  for (const ProgramResult& r : results) {
    if (!r.has_cycle) continue;
    any = true;
    bool forced = false;
    for (const Forced& f : r.forced) forced = forced || f.source == "lock cycle";
    out << "- **" << r.truth.name << "** `" << r.cycle_text << "` " << (r.cycle_true ? "true" : "wrong")
        << (forced ? "" : " (not forced: the report has no `confirmation` for it)") << "\n";
  }
  out << (any ? "\n" : "none\n\n");
}

void print_forced(const std::vector<ProgramResult>& results, std::ostream& out) {
  for (const ProgramResult& r : results) {
    if (r.forced.empty()) continue;
    out << "- **" << r.truth.name << "**\n";
    for (const Forced& f : r.forced) {
      out << "  - " << f.source << " `" << f.text << "` " << (f.is_true ? "true" : "wrong") << ": **" << f.verdict
          << "** — " << evidence_text(f.confirmation) << "\n";
    }
  }
  out << "\n";
}

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace

int evaluate_corpus(const CorpusSettings& s, std::ostream& out) {
  std::vector<std::filesystem::path> sources;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(s.source_dir, error)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".c" || ext == ".cpp") sources.push_back(entry.path());
  }
  if (error || sources.empty()) {
    std::cerr << "ctrlsched_evaluate: no programs in " << s.source_dir << "\n";
    return 2;
  }
  std::sort(sources.begin(), sources.end());
  const std::vector<std::string> only = split_names(s.only);
  Truth truth;
  truth.set_strict_only(s.strict_truth);
  std::vector<ProgramTruth> programs;
  for (const auto& path : sources) {
    const std::string name = path.stem().string();
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    std::ifstream in(path);
    ProgramTruth program = truth.add_program(name, path.filename().string(), in);
    if (!program.problems.empty()) {
      std::cerr << "ctrlsched_evaluate: " << path.string() << ": bad ctrlsched-truth header: " << program.problems[0] << "\n";
      return 2;
    }
    programs.push_back(program);
  }
  if (programs.size() != (only.empty() ? sources.size() : only.size())) {
    std::cerr << "ctrlsched_evaluate: --only names a program that is not in " << s.source_dir << "\n";
    return 2;
  }
  std::vector<ProgramResult> results;
  for (const ProgramTruth& program : programs) {
    std::cerr << "ctrlsched_evaluate: " << program.name << "\n";
    results.push_back(evaluate_program(s, truth, program));
  }
  const Summary summary = summarize(results);
  out << "### Summary (" << summary.programs << " programs, " << s.seeds << " seeds each)\n\n";
  print_summary(summary, s.seeds, out);
  out << "### Per program\n\n";
  print_program_rows(results, out);
  out << "### Lock-order cycles\n\n";
  print_cycles(results, out);
  out << "### Every forced verdict with its evidence\n\n";
  print_forced(results, out);
  if (!s.summary_json.empty()) {
    std::ofstream json_out(s.summary_json);
    json_out << summary_json(summary, s.seeds).dump(2) << "\n";
  }
  return 0;
}

}  // namespace ctrlsched::eval

// The corpus mode of ctrlsched_evaluate (docs/evaluation.md, "Corpus"): every program of
// tests/eval/corpus/ with its `ctrlsched-truth:` header is run through `ctrlsched --localize`,
// and the per-program table and the summary rows are printed as Markdown.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace ctrlsched::eval {

struct CorpusSettings {
  std::string ctrlsched = "ctrlsched";
  std::string source_dir;    // tests/eval/corpus: the programs and their truth headers
  std::string bin_dir = ".";  // where <name>_instrumented was built
  std::string work = "evaluation";
  std::string only;          // comma-separated program names; empty = all
  std::string jobs;          // passed to ctrlsched as -j when not empty
  std::string summary_json;  // also write the summary counts here (read by the e2e test)
  std::uint64_t seeds = 1000;
  // The strategy of the seeds run: "pct" (the tables since the corpus began were measured with
  // it) or "portfolio" (ctrlsched's default, what a user who passes no --strategy gets).
  std::string strategy = "pct";
  // Judge the reports already in `work` (from an earlier run with the same seeds) instead of
  // running ctrlsched again: for a changed truth header, or a subset of an earlier run.
  bool reuse_reports = false;
  // Judge by truth.h's strict rule only: a report's sides must be a run of a cause, with no
  // further side on the cause's lines (Truth::set_strict_only).
  bool strict_truth = false;
};

// Returns the process exit status: 0, or 2 for a bad corpus (unreadable, malformed header).
int evaluate_corpus(const CorpusSettings& settings, std::ostream& out);

}  // namespace ctrlsched::eval

// Text rendering of a seeds run (see summary.h). Deterministic except the elapsed time and rate
// in the header line, which --quiet leaves out.
#include "report/summary.h"

#include "runs/outcome.h"

#include <algorithm>
#include <cstdio>

namespace ctrlsched::driver {
namespace {

constexpr std::size_t kStackLines = 6;
const std::string kIndent = "      ";

std::string seeds_word(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " seed" : " seeds"); }

std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "0%";
  const double p = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  char buffer[32];
  if (p > 0 && p < 0.1) return "<0.1%";
  std::snprintf(buffer, sizeof buffer, "%.1f%%", p);
  return buffer;
}

std::string header_line(const Report& report) {
  const ReportHeader& h = report.header;
  std::string line = "ctrlsched: ";
  if (h.interrupted) {
    line += std::to_string(report.runs.size()) + " of " + seeds_word(h.seeds_requested) + " finished (INTERRUPTED by " +
            signal_name(h.interrupt_signal) + ")";
  } else if (h.stopped_early) {
    line += std::to_string(report.runs.size()) + " of " + seeds_word(h.seeds_requested) + " (stopped after " +
            std::to_string(*h.stop_after) + (*h.stop_after == 1 ? " failure)" : " failures)");
  } else {
    line += seeds_word(report.runs.size());
  }
  if (h.seed_start != 0) line += " from " + std::to_string(h.seed_start);
  if (h.shard_count != 0) {
    line += " · shard " + std::to_string(h.shard_index) + "/" + std::to_string(h.shard_count) + " of " +
            seeds_word(h.seeds_requested);
  }
  line += " · " + strategy_text(h.spec) + " · " + seconds_text(h.elapsed_seconds);
  if (h.elapsed_seconds > 0) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.0f", static_cast<double>(report.runs.size()) / h.elapsed_seconds);
    line += std::string(" · ") + rate + " seeds/s";
  }
  if (h.merged_shards != 0) {
    line += " · merged from " + std::to_string(h.merged_shards) + " shards";
  } else {
    line += " · -j " + std::to_string(h.jobs);
  }
  return line + "\n";
}

}  // namespace

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, seconds < 10 ? "%.2f s" : "%.1f s", seconds);
  return buffer;
}

std::string render_failure_body(const RunResult& run, const std::string* replay_command) {
  std::string text;
  if (replay_command) text += kIndent + "replay:  " + *replay_command + "\n";
  if (run.failure) {
    for (const std::string& line : run.failure->details) text += kIndent + line + "\n";
    if (run.failure->details.empty()) {
      const auto& stack = run.failure->stack;
      for (std::size_t i = 0; i < std::min(stack.size(), kStackLines); ++i) {
        text += kIndent + (i == 0 ? "at " : "   ") + stack[i] + "\n";
      }
      if (stack.size() > kStackLines) text += kIndent + "   …\n";
    }
  }
  if (!run.note.empty()) text += kIndent + "note: " + run.note + "\n";
  if (!run.output_tail.empty()) {
    std::size_t start = 0;
    while (start <= run.output_tail.size()) {
      std::size_t end = run.output_tail.find('\n', start);
      if (end == std::string::npos) end = run.output_tail.size();
      text += kIndent + "| " + run.output_tail.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  return text;
}

std::string render_summary(const Report& report, bool quiet) {
  std::string text;
  if (!quiet) text += header_line(report);
  const std::uint64_t total = report.runs.size();
  for (const FailureGroup& group : report.groups) {
    const RunResult& first = report.runs[group.first];
    text += "FAIL  " + seeds_word(group.count) + " (" + percent(group.count, total) + ") — " +
            (first.failure ? first.failure->message : std::string(to_string(first.kind))) + ", first at seed " +
            std::to_string(first.seed) + "\n";
    text += render_failure_body(first, &group.replay);
  }
  if (quiet) return text;
  text += "PASS  " + seeds_word(at(report.counts, OutcomeKind::Pass)) + "\n";
  for (OutcomeKind kind : kAllOutcomeKinds) {
    if (kind == OutcomeKind::Pass || kind == OutcomeKind::Unfinished || at(report.counts, kind) == 0) continue;
    text += kIndent + std::string(to_string(kind)) + ": " + seeds_word(at(report.counts, kind)) + "\n";
  }
  if (const std::uint64_t unfinished = at(report.counts, OutcomeKind::Unfinished)) {
    const std::uint64_t max_steps = report.header.spec.max_steps;
    text += "UNFINISHED  " + seeds_word(unfinished) + " stopped at --max-steps " + std::to_string(max_steps) +
            " while still making progress (neither passed nor failed); to run them to the end: --max-steps " +
            std::to_string(max_steps * 10) + "\n";
  }
  // Runs not fully controlled (threads released by the watchdog or preempted for spinning) or
  // simplified by the model: say so once.
  std::uint64_t noted = 0;
  const RunResult* first_noted = nullptr;
  for (const RunResult& run : report.runs) {
    if (run.note.empty()) continue;
    if (!first_noted) first_noted = &run;
    ++noted;
  }
  if (first_noted) {
    text += "NOTE  " + seeds_word(noted) + " with a note; first at seed " +
            std::to_string(first_noted->seed) + ": " + first_noted->note + "\n";
  }
  return text;
}

}  // namespace ctrlsched::driver

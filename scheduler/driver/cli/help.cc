// --help and the docs/cli.md table (see help.h).
#include "cli/help.h"

#include <algorithm>
#include <string>

#include "options/command_line.h"

namespace ctrlsched::driver {
namespace {

const char* scope_title(OptionScope scope) {
  switch (scope) {
    case OptionScope::Seeds: return "Running seeds";
    case OptionScope::Search: return "Running seeds and shrinking";
    case OptionScope::Spec: return "Choosing the schedule (seeds, and replay/trace/shrink --seed)";
    case OptionScope::Replay: return "Replay, trace and shrink";
    case OptionScope::Trace: return "Trace";
    case OptionScope::Common: return "All modes";
  }
  return "";
}

const char* scope_cell(OptionScope scope) {
  switch (scope) {
    case OptionScope::Seeds: return "seeds";
    case OptionScope::Search: return "seeds, shrink";
    case OptionScope::Spec: return "seeds, replay/trace/shrink --seed";
    case OptionScope::Replay: return "replay, trace, shrink";
    case OptionScope::Trace: return "trace";
    case OptionScope::Common: return "all";
  }
  return "";
}

// "-j, --jobs N" / "--quiet"
std::string synopsis(const OptionInfo& option) {
  std::string text;
  if (option.short_name) text += std::string("-") + option.short_name + ", ";
  text += std::string("--") + option.long_name;
  if (*option.metavar) text += std::string(" ") + option.metavar;
  return text;
}

// Markdown tables split cells at '|', so "random | pct" is written "random \| pct".
std::string table_cell(const char* text) {
  std::string cell;
  for (const char* c = text; *c; ++c) {
    if (*c == '|') cell += '\\';
    cell += *c;
  }
  return cell;
}

constexpr OptionScope kScopeOrder[] = {OptionScope::Seeds, OptionScope::Search, OptionScope::Spec, OptionScope::Replay,
                                       OptionScope::Trace, OptionScope::Common};

}  // namespace

std::string help_text() {
  std::string text =
      "Usage: ctrlsched [options] [--] ./test [args...]\n"
      "       ctrlsched replay <handle> | --seed S | --schedule FILE [options] [--] ./test [args...]\n"
      "       ctrlsched trace <handle> | --seed S | --schedule FILE [options] [--] ./test [args...]\n"
      "       ctrlsched trace --dump FILE.cstrace [dump options]\n"
      "       ctrlsched shrink <handle> | --seed S | --schedule FILE [options] [--] ./test [args...]\n"
      "\n"
      "Runs a multithreaded test once per seed under a controlled scheduler (one thread runs at a\n"
      "time; every interleaving is chosen by the seed), groups the failures and prints, for each, a\n"
      "command that replays it exactly. Options come before the test program; everything after it\n"
      "is passed to the test. Values may be given as '--opt value' or '--opt=value'.\n"
      "'replay' runs one interleaving again; 'trace' does the same and writes its event trace\n"
      "(a binary .cstrace file and a readable dump next to it). 'shrink' finds a run that fails the\n"
      "same way with as few preemptions as it can and saves it as a schedule file.\n";
  for (OptionScope scope : kScopeOrder) {
    text += std::string("\n") + scope_title(scope) + ":\n";
    for (const OptionInfo& option : option_table()) {
      if (option.scope != scope) continue;
      std::string line = "  " + synopsis(option);
      line.resize(std::max<std::size_t>(line.size() + 2, 26), ' ');
      line += option.help;
      if (*option.default_text) line += std::string(" [default: ") + option.default_text + "]";
      text += line + "\n";
    }
  }
  text +=
      "\nExit codes: 0 no failure, 1 failures found (replay, trace: reproduced), 2 usage error,\n"
      "3 the test cannot run under ctrlsched, 4 replay diverged, 5 bad schedule file, handle or\n"
      "trace file, 6 internal error.\n";
  return text;
}

std::string options_markdown() {
  std::string text =
      "| Option | Default | Used by | Meaning |\n"
      "|---|---|---|---|\n";
  for (const OptionInfo& option : option_table()) {
    text += "| `" + synopsis(option) + "` | ";
    text += *option.default_text ? "`" + std::string(option.default_text) + "`" : std::string("—");
    text += std::string(" | ") + scope_cell(option.scope) + " | " + table_cell(option.help) + " |\n";
  }
  return text;
}

}  // namespace ctrlsched::driver

// Failure grouping by signature (see grouping.h).
#include "report/grouping.h"

#include <map>

#include "report/shell_quote.h"

namespace ctrlsched::driver {

std::string replay_command(const std::string& handle, const TestCommand& test) {
  std::vector<std::string> words = {"ctrlsched", "replay", handle};
  words.insert(words.end(), test.replay_options.begin(), test.replay_options.end());
  words.push_back(test.target);
  words.insert(words.end(), test.args.begin(), test.args.end());
  return shell_join(words);
}

std::vector<FailureGroup> group_failures(std::span<const RunResult> runs, const TestCommand& test) {
  std::vector<FailureGroup> groups;
  std::map<std::string, std::size_t> by_signature;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunResult& run = runs[i];
    if (!run.failed()) continue;
    const std::string signature = run.failure ? run.failure->signature : std::string(to_string(run.kind));
    auto [it, inserted] = by_signature.emplace(signature, groups.size());
    if (inserted) {
      FailureGroup group;
      group.kind = run.kind;
      group.signature = signature;
      group.first = i;
      group.replay = replay_command(run.handle, test);
      groups.push_back(std::move(group));
    }
    ++groups[it->second].count;
  }
  return groups;
}

OutcomeCounts count_outcomes(std::span<const RunResult> runs) {
  OutcomeCounts counts{};
  for (const RunResult& run : runs) ++at(counts, run.kind);
  return counts;
}

}  // namespace ctrlsched::driver

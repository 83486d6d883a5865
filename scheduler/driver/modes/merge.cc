// Merge mode (see modes.h and report/merge.h): reads the shard reports, merges them, prints the
// text summary a single run would have printed and writes the merged JSON report; with --into,
// copies run stores into one (store/run_store.h).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "modes/modes.h"
#include "report/merge.h"
#include "report/summary.h"
#include "store/run_store.h"

namespace ctrlsched::driver {

namespace {

// merge --into: one line per store copied, then what the target holds.
ExitCode merge_stores(const MergeCommandLine& cl) {
  RunStore target(*cl.into);
  for (const std::string& path : cl.reports) {
    const StoreMergeCounts added = target.absorb(path);
    std::printf("%s: added %lld runs, %lld invocations, %lld builds\n", path.c_str(),
                static_cast<long long>(added.runs_added), static_cast<long long>(added.invocations_added),
                static_cast<long long>(added.generations_created));
  }
  std::fflush(stdout);
  return ExitCode::Ok;
}

}  // namespace

ExitCode run_merge(const MergeCommandLine& cl) {
  if (cl.into) return merge_stores(cl);
  std::vector<ShardReport> shards;
  for (const std::string& path : cl.reports) {
    std::ifstream in(path);
    if (!in) usage_error("merge: cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    ShardReport shard;
    shard.name = path;
    shard.json = nlohmann::ordered_json::parse(text.str(), nullptr, false);
    if (shard.json.is_discarded()) usage_error("merge: " + path + " is not valid JSON");
    shards.push_back(std::move(shard));
  }
  std::ofstream json_out;
  if (cl.json) {
    json_out.open(*cl.json, std::ios::trunc);
    if (!json_out) usage_error("cannot write the --json file " + *cl.json);
  }
  const MergedReport merged = merge_shard_reports(shards);
  for (const std::string& warning : merged.warnings) std::fprintf(stderr, "ctrlsched: warning: %s\n", warning.c_str());
  const std::string text = render_summary(merged.report, cl.quiet);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  if (cl.json) {
    json_out << merged.json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    json_out.flush();
    if (!json_out) std::fprintf(stderr, "ctrlsched: warning: writing the --json file %s failed\n", cl.json->c_str());
  }
  return merged.report.failures() > 0 ? ExitCode::Failures : ExitCode::Ok;
}

}  // namespace ctrlsched::driver

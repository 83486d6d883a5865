// Rebuilding a report from stored runs (see stored_report.h).
#include "store/stored_report.h"

#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "store/run_codec.h"
#include "store/store_writer.h"

namespace ctrlsched::driver {

StoredExploration load_exploration(RunStore& store, std::int64_t generation, Symbolizer& symbolizer) {
  const std::string header_text = store.latest_header(generation);
  if (header_text.empty()) throw DriverError(ExitCode::BadStore, "the store has no seeds run of this binary");
  StoredExploration out;
  Report& report = out.report;
  report.header = decode_header(header_text);
  const std::string spec = encode_spec(report.header.spec);
  std::vector<StoredRun> rows = store.runs(generation);
  std::vector<StoredRun> kept;
  for (StoredRun& row : rows) {
    // Stored specs are compared as decoded, so a field order change cannot split them.
    if (encode_spec(decode_spec(row.spec)) == spec) {
      kept.push_back(std::move(row));
    } else {
      ++out.other_strategies;
    }
  }
  out.data = LocalizationData(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    RunResult result = decode_run_result(kept[i].result);
    std::optional<localize::FalconRun> falcon;
    std::optional<localize::SpectraRun> spectra;
    if (kept[i].falcon) falcon = decode_falcon_run(*kept[i].falcon);
    if (kept[i].spectra) spectra = decode_spectra_run(*kept[i].spectra);
    out.summaries += falcon || spectra;
    out.data.add_stored(i, result.failed(), kept[i].instrumented, std::move(falcon), std::move(spectra),
                        result.access_pairs);
    report.runs.push_back(std::move(result));
  }
  if (!report.runs.empty()) report.header.seed_start = report.runs.front().seed;
  report.header.seeds_requested = report.runs.size();
  finish_report(report);
  if (const std::string modules = store.modules(generation); !modules.empty()) {
    const nlohmann::json table = nlohmann::json::parse(modules, nullptr, false);
    std::vector<RecordNames::Module> list;
    try {
      for (const auto& m : table) {
        list.push_back({m.at(0).get<std::string>(), m.at(1).get<std::uint64_t>(), m.at(2).get<std::uint64_t>()});
      }
    } catch (const nlohmann::json::exception&) {
      throw DriverError(ExitCode::BadStore, "the store holds a corrupt module table");
    }
    out.data.set_names(RecordNames(std::move(list), symbolizer.function(),
                                   [&symbolizer](const std::string& module, std::uint64_t offset) {
                                     return symbolizer.data_symbol(module, offset);
                                   }));
  }
  return out;
}

}  // namespace ctrlsched::driver

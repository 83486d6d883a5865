// Reading and rendering block spectra (see spectra_summary.h).
#include "localize/spectra_summary.h"

#include <cstdio>

#include "ctrlsched/block_spectra.h"
#include "runs/collector_summary.h"

namespace ctrlsched::driver {

std::optional<localize::SpectraRun> read_spectra_run(const RunRecord& record, bool failed) {
  const auto* summary =
      collector_summary<BlockSpectraSummary>(record, kCollectSpectra, kSpectraOffset, kBlockSpectraMagic);
  if (summary == nullptr) return std::nullopt;
  localize::SpectraRun run;
  run.failed = failed;
  const std::uint32_t used = std::min(summary->used, kMaxSpectraComponents);
  for (std::uint32_t i = 0; i < used; ++i) {
    const ComponentSpectrum& c = summary->components[i];
    localize::ComponentObservation o;
    o.site = c.site;
    o.call_site = c.call_site;
    o.entries = c.entries;
    o.threads = c.threads;
    o.concurrent = c.concurrent != 0;
    o.concurrent_threads = {c.concurrent_threads[0], c.concurrent_threads[1]};
    o.first_entry = c.first_entry;
    run.components.push_back(o);
  }
  return run;
}

std::vector<std::string> render_spectra_text(std::span<const localize::RankedComponent> ranking,
                                             std::uint32_t failing, std::uint32_t passing, const RecordNames& names,
                                             std::size_t limit) {
  std::vector<std::string> lines;
  // Ranked by how often they ran concurrently in failing runs: when none ever did, every score is
  // 0 and the ranks are ties of unrelated blocks (std::thread's destructor beside main), which a
  // list would present as suspects.
  if (!ranking.empty() && ranking.front().n11 == 0) {
    lines.push_back("  (no block ran concurrently with another thread's in a failing run: " +
                    std::to_string(ranking.size()) + " blocks, all scored 0)");
    return lines;
  }
  for (const localize::RankedComponent& r : ranking) {
    if (limit != 0 && lines.size() == limit) break;
    char head[32];
    std::snprintf(head, sizeof head, "%3u  %.2f  ", r.rank, r.score);
    std::string line = head + names.site(r.site);
    const auto& t = r.example.concurrent_threads;
    line += r.example.concurrent ? "  [T" + std::to_string(t[0]) + " ∥ T" + std::to_string(t[1]) + "]" : "  -";
    line += "   concurrent in failing " + std::to_string(r.n11) + "/" + std::to_string(failing) + " · passing " +
            std::to_string(r.n10) + "/" + std::to_string(passing);
    if (r.tied > 1) line += " · " + std::to_string(r.tied) + " tied";
    lines.push_back(std::move(line));
  }
  return lines;
}

nlohmann::ordered_json spectra_json(std::span<const localize::RankedComponent> ranking, std::uint32_t failing,
                                    std::uint32_t passing, const RecordNames& names) {
  using Json = nlohmann::ordered_json;
  Json root;
  root["failing"] = failing;
  root["passing"] = passing;
  Json components = Json::array();
  for (const localize::RankedComponent& r : ranking) {
    Json j;
    j["rank"] = r.rank;
    j["tied"] = r.tied;
    j["score"] = r.score;
    j["component"] = names.site(r.site);
    j["n11"] = r.n11;
    j["n10"] = r.n10;
    j["n01"] = r.n01;
    j["n00"] = r.n00;
    j["entered_runs"] = r.entered_runs;
    j["threads"] = r.example.concurrent
                       ? Json::array({r.example.concurrent_threads[0], r.example.concurrent_threads[1]})
                       : Json(nullptr);
    components.push_back(std::move(j));
  }
  root["components"] = std::move(components);
  return root;
}

}  // namespace ctrlsched::driver

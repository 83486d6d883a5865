// Locon's input from run results and its findings as text and JSON (see locon_report.h).
#include "localize/locon_report.h"

#include <cinttypes>
#include <cstdio>

#include "ctrlsched/sync_ops.h"

namespace ctrlsched::driver {

namespace locon = localize::locon;

locon::RunPairs locon_pairs(const AccessPairs& pairs) {
  locon::RunPairs run;
  run.pairs.reserve(pairs.pairs.size());
  for (const AccessPairResult& p : pairs.pairs)
    run.pairs.push_back(locon::Pair{
        locon::PairKey{locon::Side{p.head_site, p.head_write, p.head_thread, p.head_iteration, p.head_sync},
                       locon::Side{p.tail_site, p.tail_write, p.tail_thread, p.tail_iteration, p.tail_sync}},
        p.location, p.head_access, p.tail_access, p.count});
  return run;
}

LoconInput without_sync_pairs(const LoconInput& input) {
  auto memory_only = [](const locon::RunPairs& run) {
    locon::RunPairs kept;
    for (const locon::Pair& p : run.pairs)
      if (p.key.head.sync == 0 && p.key.tail.sync == 0) kept.pairs.push_back(p);
    kept.executed = run.executed;
    return kept;
  };
  LoconInput out;
  out.failed = memory_only(input.failed);
  for (const locon::RunPairs& run : input.passing) out.passing.push_back(memory_only(run));
  return out;
}

std::optional<LoconInput> locon_input(const std::vector<RunResult>& runs, std::size_t failed) {
  if (failed >= runs.size() || !runs[failed].access_pairs) return std::nullopt;
  LoconInput input;
  input.failed = locon_pairs(*runs[failed].access_pairs);
  for (const RunResult& run : runs)
    if (run.passed() && run.access_pairs) input.passing.push_back(locon_pairs(*run.access_pairs));
  return input;
}

RunSiteNames site_names(const std::vector<RunResult>& runs) {
  // head/tail are "<W|R|sync word> <where>" (access_pairs.cc).
  auto where = [](const std::string& text) {
    const std::size_t space = text.find(' ');
    return space != std::string::npos ? text.substr(space + 1) : std::string("?");
  };
  RunSiteNames names;
  for (const RunResult& run : runs) {
    if (!run.access_pairs) continue;
    for (const AccessPairResult& p : run.access_pairs->pairs) {
      names.emplace(p.head_site, where(p.head));
      names.emplace(p.tail_site, where(p.tail));
    }
  }
  return names;
}

namespace {

std::string site_name(std::uint64_t site, const RunSiteNames& names) {
  if (auto it = names.find(site); it != names.end() && it->second != "?") return it->second;
  char raw[32];
  std::snprintf(raw, sizeof raw, "0x%" PRIx64, site);
  return raw;
}

}  // namespace

// "R", "W", or the sync operation's word ("lock", "signal", ...: ctrlsched/sync_ops.h).
static std::string side_kind(const locon::Side& side) {
  if (side.sync != 0) return sync_op_name(static_cast<SyncOp>(side.sync));
  return side.write ? "W" : "R";
}

std::string side_text(const locon::Side& side, locon::Level level, const RunSiteNames& names) {
  std::string text = side_kind(side) + "@" + site_name(side.site, names);
  if (level == locon::Level::Tid) text += " [T" + std::to_string(side.thread) + "]";
  if (level == locon::Level::Loop)
    text += " [T" + std::to_string(side.thread) + ", iteration " + std::to_string(side.iteration) + "]";
  return text;
}

std::string pair_text(const locon::PairKey& pair, locon::Level level, const RunSiteNames& names) {
  return side_text(pair.head, level, names) + " → " + side_text(pair.tail, level, names);
}

std::string findings_text(const std::vector<locon::Finding>& findings, const RunSiteNames& names) {
  if (findings.empty()) return "Locon: no buggy access pair found.\n";
  const locon::Finding& first = findings.front();
  std::string text = "Locon: procedure " + std::string(name(first.procedure)) + " at " +
                     std::string(name(first.level)) + " level, " + std::to_string(findings.size()) +
                     (findings.size() == 1 ? " finding\n" : " findings\n");
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const locon::Finding& f = findings[i];
    text += "  " + std::to_string(i + 1) + ". " + pair_text(f.pairs.front(), f.level, names) + "\n";
    const char* other = f.procedure == locon::Procedure::III ? "coupled with" : "partner";
    for (std::size_t j = 1; j < f.pairs.size(); ++j)
      text += "     " + std::string(other) + ": " + pair_text(f.pairs[j], f.level, names) + "\n";
    text += "     " + f.reason + "\n";
  }
  return text;
}

nlohmann::ordered_json findings_json(const std::vector<locon::Finding>& findings, const RunSiteNames& names) {
  using Json = nlohmann::ordered_json;
  auto side_json = [&](const locon::Side& s, locon::Level level) {
    Json j{{"kind", side_kind(s)}, {"site", site_name(s.site, names)}};
    if (level != locon::Level::Pc) j["thread"] = s.thread;
    if (level == locon::Level::Loop) j["iteration"] = s.iteration;
    return j;
  };
  Json all = Json::array();
  for (const locon::Finding& f : findings) {
    Json pairs = Json::array();
    for (const locon::PairKey& p : f.pairs)
      pairs.push_back(Json{{"text", pair_text(p, f.level, names)},
                           {"head", side_json(p.head, f.level)},
                           {"tail", side_json(p.tail, f.level)}});
    all.push_back(Json{{"procedure", name(f.procedure)},
                       {"level", name(f.level)},
                       {"order", f.order},
                       {"reason", f.reason},
                       {"pairs", std::move(pairs)}});
  }
  return all;
}

}  // namespace ctrlsched::driver

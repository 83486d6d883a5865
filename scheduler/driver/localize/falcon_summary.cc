// Reading and rendering Falcon patterns (see falcon_summary.h).
#include "localize/falcon_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "ctrlsched/falcon_patterns.h"
#include "ctrlsched/sync_ops.h"
#include "runs/collector_summary.h"

namespace ctrlsched::driver {

std::optional<localize::FalconRun> read_falcon_run(const RunRecord& record, bool failed, const RecordNames& names) {
  const auto* summary =
      collector_summary<FalconPatternSummary>(record, kCollectFalcon, kFalconOffset, kFalconPatternsMagic);
  if (summary == nullptr) return std::nullopt;
  localize::FalconRun run;
  run.failed = failed;
  run.dropped = summary->dropped;
  run.fixed_by_lifecycle = summary->fixed_by_lifecycle;
  const std::uint32_t used = std::min(summary->used, kMaxFalconPatterns);
  for (std::uint32_t i = 0; i < used; ++i) {
    const FalconPatternEntry& e = summary->patterns[i];
    if (e.kind >= kFalconKinds) continue;
    localize::FalconSighting s;
    s.id.kind = static_cast<FalconKind>(e.kind);
    s.id.sites = {e.sites[0], e.sites[1], falcon_kind_length(s.id.kind) == 3 ? e.sites[2] : 0};
    if (falcon_kind_is_sync(s.id.kind))
      s.id.ops = {e.ops[0], e.ops[1], falcon_kind_length(s.id.kind) == 3 ? e.ops[2] : std::uint8_t{0}};
    s.count = e.count;
    s.location = e.location;
    s.location_name = names.data(e.location);
    s.threads = {e.threads[0], e.threads[1]};
    run.patterns.push_back(std::move(s));
  }
  if (summary->executed_dropped == 0) {
    std::vector<localize::ExecutedAccess> executed;
    const std::uint32_t n = std::min(summary->executed_used, kMaxFalconAccesses);
    for (std::uint32_t i = 0; i < n; ++i) {
      const FalconExecutedAccess& a = summary->executed[i];
      executed.push_back({a.site, a.location, a.kind == static_cast<std::uint8_t>(ExecutedKind::Write),
                          a.kind == static_cast<std::uint8_t>(ExecutedKind::Sync)});
    }
    std::sort(executed.begin(), executed.end());
    run.executed = std::move(executed);
  }
  return run;
}

std::map<std::uint64_t, std::uint64_t> statement_sites(const std::vector<localize::FalconRun>& runs,
                                                       const RecordNames& names) {
  std::set<std::uint64_t> sites;
  for (const localize::FalconRun& run : runs) {
    for (const localize::FalconSighting& s : run.patterns) {
      const auto pcs = s.forcing_sites();
      for (std::uint32_t i = 0; i < falcon_kind_length(s.id.kind); ++i) sites.insert(pcs[i]);
    }
    if (run.executed) {
      for (const localize::ExecutedAccess& a : *run.executed) sites.insert(a.site);
    }
  }
  std::map<std::string, std::uint64_t> first_of_statement;  // sites ascending: the smallest wins
  std::map<std::uint64_t, std::uint64_t> statement_of;
  for (const std::uint64_t site : sites) {
    std::string statement = names.statement(site);
    if (statement.empty()) continue;
    statement = std::to_string(site >> kSiteModuleShift) + "/" + statement;  // one module's statement
    statement_of[site] = first_of_statement.try_emplace(statement, site).first->second;
  }
  return statement_of;
}

namespace {

std::string score_text(double score) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", score);
  return text;
}

std::string location_text(const localize::FalconSighting& s, const RecordNames& names) {
  return s.location_name.empty() ? names.location(s.location) : s.location_name;
}

// Role of access i of a pattern: the middle access of a triple and the second of a pair are role 2.
int role_of(std::uint32_t i) { return i == 1 ? 2 : 1; }

bool writes(FalconKind kind, std::uint32_t i) { return falcon_kind_name(kind)[3 * i] == 'W'; }

// What side i does: "R"/"W" for a memory access, the sync operation's word (sync_ops.h).
std::string side_kind(const localize::FalconPatternId& id, std::uint32_t i) {
  if (falcon_kind_is_sync(id.kind)) return sync_op_name(static_cast<SyncOp>(id.ops[i]));
  return writes(id.kind, i) ? "W" : "R";
}

// The column of a site's statement ("12"), "" when the debug information has none.
std::string column_of(std::uint64_t site, const RecordNames& names) {
  const std::string statement = names.statement(site);  // "path/file.c:18:9"
  const auto colon = statement.rfind(':');
  if (colon == std::string::npos || colon + 1 >= statement.size() || statement.substr(colon + 1) == "0") return "";
  return statement.substr(colon + 1);
}

// "file.c:24 f" with the column after the line ("file.c:24:50 f"): for two statements of one
// line that would otherwise print alike (a member's default initializer and the constructor
// body's assignment, both on the constructor's line).
std::string with_column(const std::string& name, const std::string& column) {
  const auto space = name.find(' ');
  return column.empty() ? name : name.substr(0, space) + ":" + column + (space == std::string::npos ? "" : name.substr(space));
}

}  // namespace

std::vector<std::string> render_falcon_text(const localize::FalconRanking& ranking, const RecordNames& names,
                                            std::size_t limit) {
  std::vector<std::string> lines;
  // Names that shown sites of different columns print as get their column (a read and a write of
  // one statement, `counter++`, share a column and keep the plain name).
  std::map<std::string, std::set<std::string>> columns_named;
  for (std::size_t k = 0; k < ranking.patterns.size() && (limit == 0 || k < limit); ++k) {
    const localize::RankedFalconPattern& p = ranking.patterns[k];
    for (std::uint32_t i = 0; i < falcon_kind_length(p.id.kind); ++i)
      columns_named[names.site(p.id.sites[i])].insert(column_of(p.id.sites[i], names));
  }
  const auto site_text = [&](std::uint64_t site) {
    const std::string name = names.site(site);
    return columns_named[name].size() > 1 ? with_column(name, column_of(site, names)) : name;
  };
  for (const localize::RankedFalconPattern& p : ranking.patterns) {
    if (limit != 0 && lines.size() == limit) break;
    char head[48];
    std::snprintf(head, sizeof head, "%3u  %s  %-8s  ", p.rank, score_text(p.score).c_str(),
                  localize::falcon_pattern_name(p.id).c_str());
    std::string line = head + location_text(p.example, names) + "  ";
    for (std::uint32_t i = 0; i < falcon_kind_length(p.id.kind); ++i) {
      if (i) line += " → ";
      line += site_text(p.id.sites[i]);
      if (role_of(i) == 2) line += " [T" + std::to_string(p.example.threads[1]) + "]";
    }
    line += "   failing " + std::to_string(p.failed) + "/" + std::to_string(ranking.total_failed) + " · passing " +
            std::to_string(p.passed) + "/" + std::to_string(ranking.total_passed);
    if (p.failed_cut_short > 0) {
      line += " (" + std::to_string(p.failed_cut_short) + " failing " + (p.failed_cut_short == 1 ? "run" : "runs") +
              " ended before the write)";
    }
    if (p.tied > 1) line += " · " + std::to_string(p.tied) + " tied";
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string fixed_orders_note(std::uint64_t occurrences) {
  if (occurrences == 0) return "";
  return "; " + std::to_string(occurrences) + (occurrences == 1 ? " occurrence" : " occurrences") +
         " of orders thread creation or join fixes not counted";
}

nlohmann::ordered_json falcon_json(const localize::FalconRanking& ranking, const RecordNames& names) {
  using Json = nlohmann::ordered_json;
  Json root;
  root["score"] = std::string(localize::to_string(ranking.score));
  root["runs"] = ranking.runs;
  root["failing"] = ranking.total_failed;
  root["passing"] = ranking.total_passed;
  root["dropped"] = ranking.dropped;
  root["fixed_by_lifecycle"] = ranking.fixed_by_lifecycle;
  Json patterns = Json::array();
  for (const localize::RankedFalconPattern& p : ranking.patterns) {
    Json j;
    j["rank"] = p.rank;
    j["tied"] = p.tied;
    j["score"] = p.score;
    j["kind"] = localize::falcon_pattern_name(p.id);
    if (falcon_kind_is_sync(p.id.kind)) j["sync"] = true;
    j["location"] = location_text(p.example, names);
    Json accesses = Json::array();
    for (std::uint32_t i = 0; i < falcon_kind_length(p.id.kind); ++i) {
      const int role = role_of(i);
      accesses.push_back(Json{{"access", side_kind(p.id, i)},
                              {"role", role},
                              {"site", names.site(p.id.sites[i])},
                              {"thread", p.example.threads[static_cast<std::size_t>(role - 1)]}});
    }
    j["accesses"] = std::move(accesses);
    j["failed"] = p.failed;
    if (p.failed_cut_short > 0) j["failed_cut_short"] = p.failed_cut_short;
    j["passed"] = p.passed;
    j["occurrences"] = p.occurrences;
    patterns.push_back(std::move(j));
  }
  root["patterns"] = std::move(patterns);
  return root;
}

}  // namespace ctrlsched::driver

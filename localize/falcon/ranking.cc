// Falcon's pattern ranking across runs (see ctrlsched/localize/falcon.h).
#include <cmath>
#include <map>
#include <range/v3/algorithm/sort.hpp>
#include <range/v3/view/map.hpp>
#include <range/v3/range/conversion.hpp>

#include "ctrlsched/localize/falcon.h"

#include "ctrlsched/sync_ops.h"

namespace ctrlsched::localize {

std::string_view to_string(FalconScore score) {
  switch (score) {
    case FalconScore::Jaccard: return "jaccard";
    case FalconScore::Tarantula: return "tarantula";
    case FalconScore::Ochiai: return "ochiai";
  }
  return "?";
}

std::optional<FalconScore> parse_falcon_score(std::string_view text) {
  for (FalconScore s : {FalconScore::Jaccard, FalconScore::Tarantula, FalconScore::Ochiai})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

double falcon_score(FalconScore score, std::uint32_t failed, std::uint32_t passed, std::uint32_t total_failed,
                    std::uint32_t total_passed) {
  const double f = failed, p = passed, tf = total_failed, tp = total_passed;
  switch (score) {
    case FalconScore::Jaccard: return tf + p == 0 ? 0.0 : f / (tf + p);
    case FalconScore::Tarantula: {
      const double pf = tf == 0 ? 0.0 : f / tf;
      const double pp = tp == 0 ? 0.0 : p / tp;
      return pf + pp == 0 ? 0.0 : pf / (pf + pp);
    }
    case FalconScore::Ochiai: {
      const double d = std::sqrt(tf * (f + p));
      return d == 0 ? 0.0 : f / d;
    }
  }
  return 0.0;
}

std::uint8_t falcon_specificity(FalconKind kind) {
  if (kind == FalconKind::W1W2W1) return 2;  // serializable: says no more than its pair W1-W2
  return falcon_kind_length(kind) == 3 ? 0 : 1;
}

FalconRankKey falcon_rank_key(const RankedFalconPattern& p, bool sync_first) {
  FalconRankKey key;
  key.score = -p.score;
  key.failed = -static_cast<std::int64_t>(p.failed);
  key.passed = p.passed;
  key.sync_group = sync_first && !falcon_kind_is_sync(p.id.kind) ? 1 : 0;
  key.specificity = falcon_specificity(p.id.kind);
  return key;
}

FalconRanking rank_falcon(std::span<const FalconRun> runs, FalconScore score, bool sync_first) {
  FalconRanking ranking;
  ranking.score = score;
  ranking.runs = static_cast<std::uint32_t>(runs.size());
  std::map<FalconPatternId, RankedFalconPattern> by_id;
  for (const FalconRun& run : runs) {
    (run.failed ? ranking.total_failed : ranking.total_passed) += 1;
    ranking.dropped += run.dropped;
    ranking.fixed_by_lifecycle += run.fixed_by_lifecycle;
    for (const FalconSighting& s : run.patterns) {
      auto [it, fresh] = by_id.try_emplace(s.id);
      RankedFalconPattern& p = it->second;
      if (fresh) p.id = s.id;
      // The example comes from the first failing run, else from the first run.
      if (fresh || (run.failed && p.failed == 0)) p.example = s;
      (run.failed ? p.failed : p.passed) += 1;
      if (run.failed && s.cut_short) ++p.failed_cut_short;
      p.occurrences += s.count;
    }
  }
  ranking.patterns = by_id | ranges::views::values | ranges::to<std::vector>();
  for (RankedFalconPattern& p : ranking.patterns)
    p.score = falcon_score(score, p.failed, p.passed, ranking.total_failed, ranking.total_passed);
  ranges::sort(ranking.patterns, [sync_first](const RankedFalconPattern& a, const RankedFalconPattern& b) {
    if (const auto order = falcon_rank_key(a, sync_first) <=> falcon_rank_key(b, sync_first); order != 0)
      return order < 0;
    return a.id < b.id;  // kind, then sites, then sync operations
  });
  for (std::size_t i = 0; i < ranking.patterns.size();) {
    std::size_t end = i;
    while (end < ranking.patterns.size() &&
           falcon_rank_key(ranking.patterns[end], sync_first) == falcon_rank_key(ranking.patterns[i], sync_first))
      ++end;
    for (std::size_t k = i; k < end; ++k) {
      ranking.patterns[k].rank = static_cast<std::uint32_t>(i + 1);
      ranking.patterns[k].tied = static_cast<std::uint32_t>(end - i);
    }
    i = end;
  }
  return ranking;
}

std::string falcon_pattern_name(const FalconPatternId& id) {
  if (!falcon_kind_is_sync(id.kind)) return falcon_kind_name(id.kind);
  std::string name;
  for (std::uint32_t i = 0; i < falcon_kind_length(id.kind); ++i) {
    if (i) name += "-";
    name += sync_op_name(static_cast<SyncOp>(id.ops[i]));
    name += i == 1 ? "2" : "1";
  }
  return name;
}

}  // namespace ctrlsched::localize

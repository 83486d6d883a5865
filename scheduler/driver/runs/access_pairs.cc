// Reading the access-pair collector's table out of the run record (see access_pairs.h).
#include "runs/access_pairs.h"

#include <cinttypes>
#include <cstdio>
#include <map>

#include "ctrlsched/access_pairs.h"
#include "ctrlsched/sync_ops.h"
#include "ctrlsched/trace_format.h"
#include "runs/collector_summary.h"
#include "runs/failure_details.h"

namespace ctrlsched::driver {
namespace {

// A site is the return address of the hook call: step back into the call to get its line.
std::string where(const RunRecord& record, std::uint64_t site, const ClassifyContext& context) {
  const std::uint64_t module = site >> kSiteModuleShift;
  const std::uint64_t offset = site & kSiteOffsetMask;
  if (site == 0 || module >= record.modules.count) return "?";
  char frame[sizeof(TraceModule::path) + 32];
  std::snprintf(frame, sizeof frame, "%s+0x%" PRIx64, record.modules.modules[module].path, offset - 1);
  return locate(context, frame).text;
}

// "W f.c:3 (g)", or for a sync operation "lock f.c:3 (g)".
std::string site_text(const RunRecord& record, std::uint64_t site, std::uint8_t kind, const ClassifyContext& context) {
  const SyncOp op = sync_op_of_side(kind);
  const std::string word = op != SyncOp::None ? sync_op_name(op) : kind != 0 ? "W" : "R";
  return word + " " + where(record, site, context);
}

}  // namespace

std::optional<AccessPairs> read_access_pairs(const RunRecord& record, const ClassifyContext& context) {
  const auto* summary =
      collector_summary<AccessPairSummary>(record, kCollectAccessPairs, kSummaryOffset, kAccessPairsMagic);
  if (summary == nullptr) return std::nullopt;
  AccessPairs result;
  result.accesses = summary->accesses;
  result.locations = summary->locations;
  result.untracked = summary->untracked;
  result.dropped = summary->dropped_pairs;
  const std::uint32_t used = std::min(summary->used, kMaxAccessPairs);
  // Addresses differ between runs; only whether two pairs share a location matters.
  std::map<std::uint64_t, std::uint32_t> location_numbers;
  for (std::uint32_t i = 0; i < used; ++i) {
    const AccessPair& p = summary->pairs[i];
    const auto location = location_numbers.emplace(p.location, location_numbers.size()).first->second;
    result.pairs.push_back({site_text(record, p.head_site, p.head_write, context),
                            site_text(record, p.tail_site, p.tail_write, context), p.count,
                            p.head_site, p.tail_site, p.head_write == 1, p.tail_write == 1,
                            p.head_thread, p.tail_thread, p.head_iteration, p.tail_iteration,
                            p.head_access, p.tail_access, location,
                            static_cast<std::uint8_t>(sync_op_of_side(p.head_write)),
                            static_cast<std::uint8_t>(sync_op_of_side(p.tail_write))});
  }
  return result;
}

}  // namespace ctrlsched::driver

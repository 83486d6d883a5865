// Reading the access-pair collector's table out of the run record (see access_pairs.h).
#include "access_pairs.h"

#include <cinttypes>
#include <cstdio>

#include "ctrlsched/access_pairs.h"
#include "ctrlsched/trace_format.h"
#include "failure_details.h"

namespace ctrlsched::driver {
namespace {

// A site is the return address of the hook call: step back into the call to get its line.
std::string site_text(const RunRecord& record, std::uint64_t site, bool write, const ClassifyContext& context) {
  const std::string kind = write ? "W " : "R ";
  const std::uint64_t module = site >> kSiteModuleShift;
  const std::uint64_t offset = site & kSiteOffsetMask;
  if (site == 0 || module >= record.modules.count) return kind + "?";
  char frame[sizeof(TraceModule::path) + 32];
  std::snprintf(frame, sizeof frame, "%s+0x%" PRIx64, record.modules.modules[module].path, offset - 1);
  return kind + locate(context, frame).text;
}

}  // namespace

std::optional<AccessPairs> read_access_pairs(const RunRecord& record, const ClassifyContext& context) {
  if (!(record.config.collectors & kCollectAccessPairs)) return std::nullopt;
  const auto* summary = reinterpret_cast<const AccessPairSummary*>(
      reinterpret_cast<const std::uint8_t*>(&record) + kSummaryOffset);
  if (summary->magic != kAccessPairsMagic) return std::nullopt;
  AccessPairs result;
  result.accesses = summary->accesses;
  result.locations = summary->locations;
  result.untracked = summary->untracked;
  result.dropped = summary->dropped_pairs;
  const std::uint32_t used = std::min(summary->used, kMaxAccessPairs);
  for (std::uint32_t i = 0; i < used; ++i) {
    const AccessPair& p = summary->pairs[i];
    result.pairs.push_back({site_text(record, p.head_site, p.head_write != 0, context),
                            site_text(record, p.tail_site, p.tail_write != 0, context), p.count});
  }
  return result;
}

}  // namespace ctrlsched::driver

// Patterns of one statement, not of one instruction (see merge_by_statement in
// ctrlsched/localize/falcon.h).
#include <algorithm>

#include "ctrlsched/localize/falcon.h"

namespace ctrlsched::localize {

void merge_by_statement(std::vector<FalconRun>& runs, const std::map<std::uint64_t, std::uint64_t>& statement_of) {
  for (FalconRun& run : runs) {
    std::vector<FalconSighting> merged;
    std::map<FalconPatternId, std::size_t> index;
    for (FalconSighting& s : run.patterns) {
      const std::array<std::uint64_t, 3> pcs = s.forcing_sites();
      for (std::uint32_t i = 0; i < falcon_kind_length(s.id.kind); ++i) {
        const auto it = statement_of.find(pcs[i]);
        s.id.sites[i] = it == statement_of.end() ? pcs[i] : it->second;
      }
      s.pcs = pcs;
      const auto [it, fresh] = index.try_emplace(s.id, merged.size());
      if (fresh) {
        merged.push_back(std::move(s));
      } else {
        merged[it->second].count += s.count;
      }
    }
    run.patterns = std::move(merged);
  }
}

}  // namespace ctrlsched::localize

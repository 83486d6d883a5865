// The dfs strategy with its step log in the run record (see dfs_run.h).
#include "dfs_run.h"

#include "ctrlsched/dfs.h"

namespace ctrlsched::shim {

Strategy* make_dfs_run_strategy(RunRecord* record, std::span<const std::uint8_t> prefix) {
  auto* base = reinterpret_cast<std::uint8_t*>(record);
  const std::span<std::uint8_t> log(base + kDfsLogOffset, kDfsLogEnd - kDfsLogOffset);
  return make_dfs_strategy(prefix, log).release();
}

}  // namespace ctrlsched::shim

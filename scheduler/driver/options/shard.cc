// --shard parsing and the engines' environment variables (see shard.h).
#include "options/shard.h"

#include <charconv>

#include "exit_codes.h"

namespace ctrlsched::driver {
namespace {

// At most this many shards: more would leave most shards of a default run empty and is surely a
// mistake (an index passed as the count).
constexpr std::uint64_t kMaxShards = 1u << 20;

std::optional<std::uint64_t> whole(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::uint64_t whole_or_fail(const std::string& text, const std::string& where) {
  const auto value = whole(text);
  if (!value) usage_error(where + " expects a whole number, got '" + text + "'");
  return *value;
}

Shard checked(std::uint64_t index, std::uint64_t count, const std::string& where, const std::string& shown) {
  if (count == 0) usage_error(where + ": the shard count must be at least 1 (got '" + shown + "')");
  if (count > kMaxShards) usage_error(where + ": at most " + std::to_string(kMaxShards) + " shards (got '" + shown + "')");
  if (index == 0 || index > count) {
    usage_error(where + ": shard " + std::to_string(index) + " of " + std::to_string(count) +
                " does not exist (shards are numbered 1 to " + std::to_string(count) + ")");
  }
  return Shard{index, count};
}

// A zero-based index from the environment plus a count.
Shard from_index(const std::string& index_name, const std::string& index_text, std::uint64_t base,
                 const std::string& count_name, const std::optional<std::string>& count_text) {
  if (!count_text) {
    usage_error("--shard auto: " + index_name + " is set but " + count_name +
                " is not (it gives the number of shards; see docs/scale-out.md)");
  }
  const std::uint64_t index = whole_or_fail(index_text, index_name);
  const std::uint64_t count = whole_or_fail(*count_text, count_name);
  if (index < base) {
    usage_error("--shard auto: " + index_name + "=" + index_text + " is below the first index " + std::to_string(base));
  }
  const std::uint64_t k = index - base + 1;
  return checked(k, count, "--shard auto (" + index_name + "=" + index_text + ", " + count_name + "=" + *count_text + ")",
                 index_text + "/" + *count_text);
}

}  // namespace

Shard parse_shard(const std::string& text, const std::string& where) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) usage_error(where + " expects K/N (shard K of N, from 1) or auto, got '" + text + "'");
  const auto index = whole(text.substr(0, slash));
  const auto count = whole(text.substr(slash + 1));
  if (!index || !count) usage_error(where + " expects K/N with whole numbers, got '" + text + "'");
  return checked(*index, *count, where, text);
}

Shard shard_from_environment(const EnvironmentLookup& lookup) {
  if (const auto value = lookup("CTRLSCHED_SHARD")) return parse_shard(*value, "CTRLSCHED_SHARD");
  if (const auto value = lookup("JOB_COMPLETION_INDEX")) {
    return from_index("JOB_COMPLETION_INDEX", *value, 0, "CTRLSCHED_SHARD_COUNT", lookup("CTRLSCHED_SHARD_COUNT"));
  }
  if (const auto value = lookup("SLURM_ARRAY_TASK_ID")) {
    std::uint64_t base = 0;
    if (const auto min = lookup("SLURM_ARRAY_TASK_MIN")) base = whole_or_fail(*min, "SLURM_ARRAY_TASK_MIN");
    return from_index("SLURM_ARRAY_TASK_ID", *value, base, "SLURM_ARRAY_TASK_COUNT", lookup("SLURM_ARRAY_TASK_COUNT"));
  }
  usage_error("--shard auto: none of CTRLSCHED_SHARD, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID is set");
}

Shard resolve_shard(const std::string& text, const EnvironmentLookup& lookup) {
  if (text == "auto") return shard_from_environment(lookup);
  return parse_shard(text, "--shard");
}

std::uint64_t seeds_in_shard(std::uint64_t count, const Shard& shard) {
  const std::uint64_t first = shard.index - 1;
  if (first >= count) return 0;
  return (count - first - 1) / shard.count + 1;
}

}  // namespace ctrlsched::driver

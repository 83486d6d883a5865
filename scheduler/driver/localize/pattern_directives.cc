#include "localize/pattern_directives.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "ctrlsched/forcing.h"
#include "ctrlsched/sync_ops.h"

namespace ctrlsched::driver {
namespace {

ForceStep step(std::uint64_t site, bool write, std::uint8_t role) {
  return force_step(site, write ? ForceAccess::Write : ForceAccess::Read, role);
}

// A sync pattern (ctrlsched/sync_ops.h): its operations on one object, roles 0, 1, 0.
ForceDirective sync_directive(const localize::FalconPatternId& pattern, std::uint32_t hold_limit) {
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.hold_limit = hold_limit;
  d.count = falcon_kind_length(pattern.kind);
  for (std::uint32_t i = 0; i < d.count; ++i)
    d.steps[i] = force_sync_step(pattern.sites[i], pattern.ops[i], static_cast<std::uint8_t>(i == 1 ? 1 : 0));
  return d;
}

}  // namespace

ForceDirective falcon_directive(const localize::FalconPatternId& pattern, std::uint32_t hold_limit) {
  if (falcon_kind_is_sync(pattern.kind)) return sync_directive(pattern, hold_limit);
  // The kind's name spells the accesses: "R1-W2-R1" = read by role 1, write by role 2, ...
  const std::string_view name = falcon_kind_name(pattern.kind);
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.hold_limit = hold_limit;
  const std::uint32_t length = falcon_kind_length(pattern.kind);
  for (std::uint32_t i = 0; i < length; ++i) {
    const char access = name[3 * i];
    const char role = name[3 * i + 1];
    d.steps[i] = step(pattern.sites[i], access == 'W', static_cast<std::uint8_t>(role - '1'));
  }
  d.count = length;
  return d;
}

std::optional<ForceDirective> locon_directive(const localize::locon::Finding& finding, std::uint32_t hold_limit) {
  using localize::locon::Level;
  if (finding.pairs.empty()) return std::nullopt;
  // Procedure III's two pairs are one pattern. Procedure II reports the culprit first and, for
  // coupled pairs (two variables that change together), the partner the failed run has second:
  // forced as one order, the partner as it happened and then the culprit, which the failing
  // access cut short (atomicity_multi_var: W count → R count, then R sum → W sum).
  using localize::locon::Procedure;
  const bool coupled = finding.procedure == Procedure::II && finding.pairs.size() >= 2;
  const std::size_t pairs = finding.procedure == Procedure::III || coupled ? std::min<std::size_t>(finding.pairs.size(), 2) : 1;
  // The partner first, unless the culprit's accesses come first in each thread's program order
  // (latency_stats: the reporter reads the sum before the handler adds, then the count after the
  // handler counted).
  const bool partner_first = coupled && !finding.culprit_first;
  const auto pair_at = [&](std::size_t p) -> const localize::locon::PairKey& {
    return partner_first ? finding.pairs[1 - p] : finding.pairs[p];
  };
  const bool threads_known = finding.level != Level::Pc;
  std::vector<std::uint32_t> role_threads;  // role r = role_threads[r]
  auto role_of_thread = [&](std::uint32_t thread) {
    for (std::size_t r = 0; r < role_threads.size(); ++r) {
      if (role_threads[r] == thread) return static_cast<std::uint8_t>(r);
    }
    role_threads.push_back(thread);
    return static_cast<std::uint8_t>(role_threads.size() - 1);
  };
  constexpr std::array<std::uint8_t, 4> kPcRoles = {0, 1, 1, 0};
  ForceDirective d{};
  d.kind = static_cast<std::uint32_t>(ForceKind::Order);
  d.hold_limit = hold_limit;
  // Two lock pairs on two locks (procedure III on a lock-order deadlock: lock1@26 → lock2@39 on
  // lock_a, lock1@38 → lock2@27 on lock_b) are a cycle, not two orders one after the other: both
  // heads happen before either tail, each tail on the other head's lock.
  const auto is_lock = [](const localize::locon::Side& s) { return s.sync == static_cast<std::uint8_t>(SyncOp::Lock); };
  if (pairs == 2 && is_lock(pair_at(0).head) && is_lock(pair_at(0).tail) && is_lock(pair_at(1).head) &&
      is_lock(pair_at(1).tail)) {
    const auto& first = pair_at(0);
    const auto& second = pair_at(1);
    const std::array<std::pair<const localize::locon::Side*, std::uint16_t>, 4> cycle = {
        {{&first.head, 0}, {&second.head, 1}, {&first.tail, 0}, {&second.tail, 1}}};
    constexpr std::array<std::uint8_t, 4> kCycleRoles = {0, 1, 1, 0};
    for (const auto& [side, location] : cycle) {
      const std::uint8_t role = threads_known ? role_of_thread(side->thread) : kCycleRoles[d.count];
      d.steps[d.count] = force_sync_step(side->site, side->sync, role);
      d.steps[d.count++].location = location;
    }
    return d;
  }
  for (std::size_t p = 0; p < pairs; ++p) {
    const auto& pair = pair_at(p);
    const std::array sides = {pair.head, pair.tail};
    for (const auto& side : sides) {
      const std::uint8_t role = threads_known ? role_of_thread(side.thread) : kPcRoles[d.count];
      d.steps[d.count] = side.sync != 0 ? force_sync_step(side.site, side.sync, role) : step(side.site, side.write, role);
      d.steps[d.count++].location = static_cast<std::uint16_t>(p);  // procedure III: two locations
    }
  }
  return d;
}

std::optional<ForceDirective> second_pair_from_first_thread(const ForceDirective& d) {
  if (d.count != 4 || d.role_threads != 0) return std::nullopt;
  constexpr std::array<std::uint8_t, 4> kGuess = {0, 1, 1, 0};
  for (std::uint32_t i = 0; i < 4; ++i) {
    if (d.steps[i].role != kGuess[i] || d.steps[i].location != (i < 2 ? 0 : 1)) return std::nullopt;
  }
  ForceDirective other = d;
  other.steps[2].role = 0;
  other.steps[3].role = 1;
  return other;
}

std::optional<ForceDirective> held_before_lock(const ForceDirective& directive, std::uint32_t step,
                                               std::uint64_t lock_site) {
  if (static_cast<ForceKind>(directive.kind) != ForceKind::Order || step == 0 || step >= directive.count ||
      directive.count >= kMaxForceSteps || lock_site == 0) {
    return std::nullopt;
  }
  std::array<bool, kMaxForceSteps> used{};
  for (std::uint32_t i = 0; i < directive.count; ++i) {
    if (directive.steps[i].location < kMaxForceSteps) used[directive.steps[i].location] = true;
  }
  const auto free_location = std::find(used.begin(), used.end(), false);
  ForceStep lock = force_sync_step(lock_site, static_cast<std::uint8_t>(SyncOp::Lock), directive.steps[step].role);
  lock.location = static_cast<std::uint16_t>(free_location - used.begin());  // count < kMaxForceSteps: one is free
  ForceDirective d = directive;
  for (std::uint32_t i = directive.count; i > step; --i) d.steps[i] = directive.steps[i - 1];
  d.steps[step] = lock;
  ++d.count;
  return d;
}

}  // namespace ctrlsched::driver

// Suspected patterns as directives for forced runs (ctrlsched/force_directive.h): a Falcon
// pattern, a Locon finding's pair(s). ConSeq's w'→r orders come with their directive already
// (predict.h). Pure, so the role assignment is unit-tested.
#pragma once

#include <cstdint>
#include <optional>

#include "ctrlsched/force_directive.h"
#include "ctrlsched/localize/falcon.h"
#include "ctrlsched/localize/locon.h"

namespace ctrlsched::driver {

// Hold budget of localization's forced runs (decisions per hold, force_directive.h).
inline constexpr std::uint32_t kLocalizeHoldLimit = 1000;

// The pattern's accesses in order; roles as in its name (R1-W2-R1: roles 0, 1, 0).
ForceDirective falcon_directive(const localize::FalconPatternId& pattern,
                                std::uint32_t hold_limit = kLocalizeHoldLimit);

// The finding's reported pair(s) in order, head before tail. Roles follow the threads when the
// finding names them (tid and loop level); at pc level a pair's head and tail are two threads,
// and a second pair (procedure III) starts on the thread that ended the first
// (W1x → R2x, R2y → W1y). nullopt if the finding has no pair.
std::optional<ForceDirective> locon_directive(const localize::locon::Finding& finding,
                                              std::uint32_t hold_limit = kLocalizeHoldLimit);

// A pc-level two-pair directive of locon_directive with the other guess for the second pair: it
// starts on the thread that started the first (W1x → R2x, W1y → R2y; roles 0 1 0 1 for 0 1 1 0).
// The driver takes it when the reference failing run has the finding's pairs that way and not
// the other (docs/localization.md, "Synchronization orders"). nullopt for any other directive.
std::optional<ForceDirective> second_pair_from_first_thread(const ForceDirective& directive);

// `directive` with a lock step inserted before step `step`: the call at `lock_site` that took a
// lock, by that step's role, on a location of its own (docs/forcing.md, "Held before its lock").
// A forced run had to let that step's thread through because it owned a lock the thread of an
// earlier step was blocked on (ForceOutcome::starved_lock_site); held at the call instead, before
// it takes the lock, it no longer starves anyone. nullopt if it is not an Order, the step is
// step 0 or out of range, the site is unknown, or the directive has no room for one more step.
std::optional<ForceDirective> held_before_lock(const ForceDirective& directive, std::uint32_t step,
                                               std::uint64_t lock_site);

}  // namespace ctrlsched::driver

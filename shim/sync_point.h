// The scheduling point before a synchronization operation. In a directed run it also tells the
// forcing strategy what the thread is about to do (PendingKind::Sync with the SyncOp, the call
// site and the object), so a forced order can name sync operations (docs/forcing.md). Outside
// directed runs it is point(me, PointKind::Sync), with the op and object as the pending event
// when the strategy asks for them (g_rt.pending_events: POS).
#pragma once

#include <cstdint>

#include "ctrlsched/sync_ops.h"
#include "engine.h"
#include "stack.h"

namespace ctrlsched::shim {

// What the thread is about to do, for the forcing strategy (Candidate::pending*): `op` on
// `object`, at the interposed call's site.
inline void pend_sync(Thread* me, SyncOp op, std::uint64_t object) {
  me->pending = PendingKind::Sync;
  me->pending_op = static_cast<std::uint8_t>(op);
  me->pending_site = site_of(me->sync_pc);
  me->pending_address = object;
}

inline void sync_point(Thread* me, SyncOp op, std::uint64_t object) {
  // dfs runs need it too: the exploration judges which steps commute (ctrlsched/dfs_explorer.h).
  if (__builtin_expect(g_rt.forcing == nullptr && !g_rt.dfs_pending, 1)) {
    if (__builtin_expect(g_rt.pending_events, 0)) {  // POS: which sync object (pos_strategy.cc)
      me->pending = PendingKind::Sync;
      me->pending_op = static_cast<std::uint8_t>(op);
      me->pending_address = object;
      point(me, PointKind::Sync);
      me->pending = PendingKind::None;
      return;
    }
    point(me, PointKind::Sync);
    return;
  }
  pend_sync(me, op, object);
  point(me, PointKind::Sync);
  me->pending = PendingKind::None;
}

inline void sync_point(Thread* me, SyncOp op, const void* object) {
  sync_point(me, op, reinterpret_cast<std::uint64_t>(object));
}

}  // namespace ctrlsched::shim

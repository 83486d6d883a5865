#include "step_limit.h"

#include <algorithm>
#include <cstdio>

#include "report.h"
#include "stack.h"

namespace ctrlsched::shim {

namespace {

// A quarter of max_steps, between these bounds: long enough that a livelock's cycle repeats
// within half a window, short enough to cost a few percent of a default (1,000,000-step) run.
constexpr std::uint64_t kMinProbeSteps = 256;
constexpr std::uint64_t kMaxProbeSteps = 65536;
// The second half counts as progress when at least 1 event in kNovelShare is new (and at least
// kMinNovel): a livelock produces none once its cycle has been seen.
constexpr std::uint64_t kNovelShare = 64;
constexpr std::uint64_t kMinNovel = 4;

constexpr std::uint64_t kBitmapBits = 1u << 17;
std::uint64_t g_seen[kBitmapBits / 64];
std::uint64_t g_events = 0;
std::uint64_t g_novel = 0;
bool g_saw_accesses = false;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool in_second_half() { return g_rt.steps > g_rt.config.max_steps + probe_steps() / 2; }

void note_event(std::uint64_t key) {
  const std::uint64_t bit = mix(key) % kBitmapBits;
  std::uint64_t& word = g_seen[bit / 64];
  const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
  if (!in_second_half()) {
    word |= mask;
    return;
  }
  ++g_events;
  if ((word & mask) == 0) ++g_novel;
}

[[noreturn]] void end_probe(Thread* me) {
  const bool progress = g_novel >= kMinNovel && g_novel * kNovelShare >= g_events;
  if (g_rt.record->outcome == static_cast<std::uint32_t>(ShimOutcome::None)) {
    RunRecord* r = g_rt.record;
    r->steps = g_rt.steps;
    r->outcome = static_cast<std::uint32_t>(progress ? ShimOutcome::Unfinished : ShimOutcome::Hang);
    r->step_limit = StepLimitInfo{probe_steps(), g_events, g_novel, g_saw_accesses ? 1u : 0u, 0};
    FailureInfo& f = r->failure;
    const auto limit = static_cast<unsigned long long>(g_rt.config.max_steps);
    if (progress) {
      std::snprintf(f.message, sizeof f.message,
                    "unfinished: still making progress after %llu scheduling steps (--max-steps); T%u was running",
                    limit, me->id);
    } else {
      std::snprintf(f.message, sizeof f.message,
                    "hang: no progress in the last %llu of %llu scheduling steps (--max-steps); T%u was running",
                    static_cast<unsigned long long>(probe_steps()), limit, me->id);
    }
    f.thread = me->id;
    capture_stack(f.stack);
  }
  end_run();
}

}  // namespace

std::uint64_t probe_steps() {
  return std::clamp(g_rt.config.max_steps / 4, kMinProbeSteps, kMaxProbeSteps);
}

void step_past_limit(Thread* me) {
  if (g_rt.steps > g_rt.config.max_steps + probe_steps()) end_probe(me);
  note_event(me->id);
}

void note_access_past_limit(const Thread* me, std::uintptr_t address, std::uintptr_t pc,
                            std::uint64_t value) {
  g_saw_accesses = true;
  note_event(mix(me->id ^ mix(address ^ mix(pc ^ mix(value)))) | 1);
}

}  // namespace ctrlsched::shim

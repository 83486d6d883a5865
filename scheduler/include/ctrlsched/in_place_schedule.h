// Following a recorded schedule in place: the shim's input log is read where the driver wrote it
// (the run record), decision by decision, never copied onto the test's heap. So the shim's heap
// use does not depend on the schedule's length, and a seed run, the replay of its handle and the
// replay of its schedule file leave the test the same address space (docs/decisions.md 19).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "ctrlsched/decision.h"
#include "ctrlsched/strategy.h"

namespace ctrlsched {

// RunConfig::verify_input_log (run_record.h): what the input log is for. With either,
// RunConfig::strategy still names the seed's strategy (random or pct with its parameters), which
// the shim builds in every mode.
inline constexpr std::uint32_t kInputLogNone = 0;
inline constexpr std::uint32_t kInputLogVerify = 1;  // run `strategy`, check it against the log
inline constexpr std::uint32_t kInputLogFollow = 2;  // follow the log (a schedule file's replay)

// Decodes the decision starting at bytes[pos] (decision.h's encoding) and moves pos past it;
// nullopt (pos unspecified) if it is malformed or truncated.
std::optional<Decision> decode_decision(std::span<const std::uint8_t> bytes, std::size_t& pos);

// make_replay_strategy / make_verifying_strategy (strategy.h), reading the decisions in place from
// their compact encoding, which must outlive the strategy. A malformed encoding is an empty
// schedule.
std::unique_ptr<Strategy> make_replay_strategy_in_place(std::span<const std::uint8_t> encoded);
std::unique_ptr<Strategy> make_verifying_strategy_in_place(Strategy& inner, std::span<const std::uint8_t> encoded);

}  // namespace ctrlsched

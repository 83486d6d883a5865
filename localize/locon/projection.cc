#include "projection.h"

#include <range/v3/range/conversion.hpp>
#include <range/v3/view/transform.hpp>

namespace ctrlsched::localize::locon {

std::string_view name(Level level) {
  switch (level) {
    case Level::Pc: return "pc";
    case Level::Tid: return "tid";
    case Level::Loop: return "loop";
  }
  return "?";
}

std::string_view name(Procedure procedure) {
  switch (procedure) {
    case Procedure::I: return "I";
    case Procedure::II: return "II";
    case Procedure::III: return "III";
  }
  return "?";
}

PairKey at_level(const PairKey& key, Level level) {
  PairKey k = key;
  if (level != Level::Loop) k.head.iteration = k.tail.iteration = 0;
  if (level == Level::Pc) k.head.thread = k.tail.thread = 0;
  return k;
}

PairKey reversed(const PairKey& key) { return PairKey{key.tail, key.head}; }

Projection::Projection(const RunPairs& run, Level level) : run_(&run) {
  for (std::uint32_t i = 0; i < run.pairs.size(); ++i) {
    const PairKey key = at_level(run.pairs[i].key, level);
    if (first_.emplace(key, i).second) keys_.push_back(key);
  }
}

std::vector<Projection> project(const std::vector<RunPairs>& runs, Level level) {
  return runs | ranges::views::transform([level](const RunPairs& r) { return Projection(r, level); })
         | ranges::to<std::vector>();
}

}  // namespace ctrlsched::localize::locon

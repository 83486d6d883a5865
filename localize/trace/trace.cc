// Names of event kinds and object kinds, shared by the dump and by error messages.
#include "ctrlsched/localize/trace.h"

#include <array>

namespace ctrlsched::localize {

std::string wait_kind_name(std::uint16_t aux) {
  static constexpr std::array<const char*, 11> kNames = {
      "object", "mutex", "rwlock-read", "rwlock-write", "cond", "semaphore",
      "barrier", "join", "once", "spin", "futex"};
  static_assert(kNames.size() == static_cast<std::size_t>(WaitKind::Futex) + 1);
  if (aux < kNames.size()) return kNames[aux];
  return "kind" + std::to_string(aux);
}

std::string_view event_kind_name(std::uint8_t kind) {
  static constexpr std::array<std::string_view, 14> kNames = {
      "read",         "write",      "atomic-load", "atomic-store", "atomic-rmw",
      "func-entry",   "func-exit",  "thread-create", "thread-start", "thread-exit",
      "thread-join",  "acquire",    "release",     "switch"};
  static_assert(kNames.size() == static_cast<std::size_t>(EventKind::Switch) + 1);
  if (kind < kNames.size()) return kNames[kind];
  return "unknown";
}

}  // namespace ctrlsched::localize

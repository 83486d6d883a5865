// Names of event kinds and object kinds, shared by the dump and by error messages.
#include "ctrlsched/localize/trace.h"

#include <array>
#include <cstdio>

namespace ctrlsched::localize {

std::string value_text(std::uint64_t value, std::uint8_t size) {
  const unsigned bytes = size == 0 || size > 8 ? 8 : size;
  if (bytes < 8) value &= (std::uint64_t{1} << (8 * bytes)) - 1;
  std::int64_t as_signed = static_cast<std::int64_t>(value);
  if (bytes < 8 && (value >> (8 * bytes - 1)) != 0)  // sign-extend
    as_signed = static_cast<std::int64_t>(value | ~((std::uint64_t{1} << (8 * bytes)) - 1));
  if (as_signed > -65536 && as_signed < 65536) return std::to_string(as_signed);
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string wait_kind_name(std::uint16_t aux) {
  static constexpr std::array<const char*, 11> kNames = {
      "object", "mutex", "rwlock-read", "rwlock-write", "cond", "semaphore",
      "barrier", "join", "once", "spin", "futex"};
  static_assert(kNames.size() == static_cast<std::size_t>(WaitKind::Futex) + 1);
  if (aux < kNames.size()) return kNames[aux];
  return "kind" + std::to_string(aux);
}

std::string_view event_kind_name(std::uint8_t kind) {
  static constexpr std::array<std::string_view, 15> kNames = {
      "read",         "write",      "atomic-load", "atomic-store", "atomic-rmw",
      "func-entry",   "func-exit",  "thread-create", "thread-start", "thread-exit",
      "thread-join",  "acquire",    "release",     "switch",       "block"};
  static_assert(kNames.size() == static_cast<std::size_t>(EventKind::Block) + 1);
  if (kind < kNames.size()) return kNames[kind];
  return "unknown";
}

}  // namespace ctrlsched::localize

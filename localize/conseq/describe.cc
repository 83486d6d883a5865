// One-line descriptions of ConSeq candidates (conseq.h).
#include <cstdio>
#include <string>

#include "../trace/site_names.h"
#include "ctrlsched/localize/conseq.h"

namespace ctrlsched::localize {

namespace {

std::string access_letter(EventKind kind) {
  switch (kind) {
    case EventKind::Write: return "W";
    case EventKind::AtomicLoad: return "AL";
    case EventKind::AtomicStore: return "AS";
    case EventKind::AtomicRmw: return "AX";
    default: return "R";
  }
}

std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

}  // namespace

std::string describe_candidate(const Trace& trace, const OrderCandidate& c, Symbolizer& symbolizer) {
  SiteNames names(trace, symbolizer);
  auto access = [&](std::size_t i) {
    const TraceEvent& e = trace.events[i];
    std::string text = access_letter(kind_of(e)) + " T" + std::to_string(e.thread);
    if (std::string where = names.location(e.site); !where.empty()) text += " " + where;
    return text;
  };
  const bool early = c.kind == OrderKind::EarlyRead;
  std::string line = access(early ? c.read : c.write) + " → " + access(early ? c.write : c.read);
  std::string data = names.data(c.address);
  line += "  " + (data.empty() ? hex(c.address) : data);
  const std::uint8_t size = trace.events[c.read].size;
  line += " (read " + (trace.has_values ? value_text(c.value_read, size) : "?") + ", could read " +
          (c.value_possible_known ? value_text(c.value_possible, size) : "?") + ")";
  if (c.occurrences > 1) line += "  ×" + std::to_string(c.occurrences);
  const bool own_thread = !early && c.source && trace.events[c.write].thread == trace.events[c.read].thread;
  if (own_thread) line += "  (by moving " + access(*c.source) + " before it)";
  return line;
}

}  // namespace ctrlsched::localize

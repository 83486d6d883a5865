// The readable dump of a trace (format in dump.h). One pass over the events: each line is built
// from the event alone plus the three per-trace analyses the options ask for (shared locations,
// call stacks, vector clocks), so the output depends on nothing but the trace and the symbolizer.
#include "ctrlsched/localize/dump.h"

#include <optional>
#include <string>

#include "ctrlsched/localize/call_stacks.h"
#include "ctrlsched/localize/happens_before.h"
#include "ctrlsched/localize/shared_locations.h"
#include "site_names.h"
#include "text.h"

namespace ctrlsched::localize {

namespace {

std::string access_label(EventKind kind, std::uint8_t size) {
  const char* label = "R";
  switch (kind) {
    case EventKind::Write: label = "W"; break;
    case EventKind::AtomicLoad: label = "AL"; break;
    case EventKind::AtomicStore: label = "AS"; break;
    case EventKind::AtomicRmw: label = "AX"; break;
    default: break;
  }
  return label + std::to_string(size);
}

// Reads show the value read ("= 7"), writes the value they overwrite ("(was 7)"), an atomic
// read-modify-write the value it read and replaced ("(was 7)").
std::string value_part(EventKind kind, const TraceEvent& e) {
  const bool reads_only = kind == EventKind::Read || kind == EventKind::AtomicLoad;
  const std::string text = value_text(e.value, e.size);
  return reads_only ? "= " + text : "(was " + text + ")";
}

void append(std::string& line, const std::string& part) {
  if (!part.empty()) line += "  " + part;
}

class Renderer {
 public:
  Renderer(const Trace& trace, Symbolizer& symbolizer, const DumpOptions& options)
      : trace_(trace), options_(options), names_(trace, symbolizer) {
    if (options.only_shared) shared_.emplace(shared_locations(trace));
    if (options.stacks) stacks_.emplace(trace);
    if (options.vector_clocks) clocks_.emplace(trace);
  }

  void render(std::ostream& out) {
    header(out);
    for (std::size_t i = 0; i < trace_.events.size(); ++i)
      if (visible(trace_.events[i])) out << line(i) << '\n';
  }

 private:
  bool visible(const TraceEvent& e) const {
    EventKind kind = kind_of(e);
    if (!options_.func_events && (kind == EventKind::FuncEntry || kind == EventKind::FuncExit))
      return false;
    if (shared_ && is_access(kind) && e.address != 0 && !shared_->contains(e.address)) return false;
    return true;
  }

  void header(std::ostream& out) const {
    out << "trace " << (trace_.handle.empty() ? "(no handle)" : trace_.handle) << "  schedule "
        << hex16(trace_.schedule_hash) << "  events " << trace_.events.size()
        << (trace_.truncated ? "  truncated (the run produced more events)" : "") << '\n';
    for (std::size_t m = 0; m < trace_.modules.size(); ++m)
      out << "module " << m << "  " << trace_.modules[m].path << "  bias "
          << hex(trace_.modules[m].bias) << "  size " << hex(trace_.modules[m].size) << '\n';
    std::size_t shown = 0;
    for (const TraceEvent& e : trace_.events) shown += visible(e) ? 1 : 0;
    std::string filters;
    if (shared_)
      filters += "only shared locations: " + std::to_string(shared_->size()) +
                 (shared_->size() == 1 ? " address" : " addresses");
    if (!options_.func_events) filters += std::string(filters.empty() ? "" : "; ") + "func entry/exit hidden";
    out << "showing " << shown << " of " << trace_.events.size() << " events"
        << (filters.empty() ? "" : " (" + filters + ")") << '\n';
  }

  std::string line(std::size_t i) {
    const TraceEvent& e = trace_.events[i];
    std::string line = "#" + std::to_string(i) + "  T" + std::to_string(e.thread) + "  ";
    switch (EventKind kind = kind_of(e)) {
      case EventKind::Read:
      case EventKind::Write:
      case EventKind::AtomicLoad:
      case EventKind::AtomicStore:
      case EventKind::AtomicRmw:
        if (kind == EventKind::AtomicRmw && e.address == 0) {
          line += "fence";
        } else {
          line += access_label(kind, e.size) + "  " + hex(e.address);
          append(line, names_.data(e.address));
          if (trace_.has_values) line += "  " + value_part(kind, e);
        }
        finish_with_site(line, i);
        break;
      case EventKind::FuncEntry:
        line += "call";
        if (e.site != 0) line += " from " + names_.location(e.site);
        break;
      case EventKind::FuncExit: line += "return"; break;
      case EventKind::ThreadCreate:
        line += "create T" + std::to_string(e.address);
        finish_with_site(line, i);
        break;
      case EventKind::ThreadStart: line += "start"; break;
      case EventKind::ThreadExit: line += "exit"; break;
      case EventKind::ThreadJoin:
        line += "join T" + std::to_string(e.address);
        finish_with_site(line, i);
        break;
      case EventKind::Acquire:
      case EventKind::Release:
        line += std::string(kind == EventKind::Acquire ? "acquire " : "release ") +
                wait_kind_name(e.aux) + " " + hex(e.address);
        if (e.aux == static_cast<std::uint16_t>(WaitKind::Barrier))
          line += " round " + std::to_string(e.size);
        finish_with_site(line, i);
        break;
      case EventKind::Block:
        line += "block " + std::string(wait_kind_name(e.aux)) + " " +
                (e.aux == static_cast<std::uint16_t>(WaitKind::Join) ? "T" + std::to_string(e.address) : hex(e.address));
        finish_with_site(line, i);
        break;
      case EventKind::Switch:
        line += "→ T" + std::to_string(e.address) + "  (switch)";
        break;
      default:
        line += "unknown kind " + std::to_string(e.kind);
        break;
    }
    if (clocks_) {
      line += "  VC[";
      auto clock = clocks_->clock(i);
      for (std::size_t k = 0; k < clock.size(); ++k) line += (k ? "," : "") + std::to_string(clock[k]);
      line += "]";
    }
    return line;
  }

  // Appends the event's location and, for instrumented code, its stack.
  void finish_with_site(std::string& line, std::size_t i) {
    const TraceEvent& e = trace_.events[i];
    append(line, names_.location(e.site));
    if (!stacks_ || stacks_->depth_at(i) == 0) return;
    std::string frames = e.site != 0 ? names_.function(e.site) : "?";
    for (std::uint64_t site : stacks_->stack_at(i))
      frames += " ← " + (site != 0 ? names_.function(site) : std::string("?"));
    append(line, "[stack: " + frames + "]");
  }

  const Trace& trace_;
  const DumpOptions& options_;
  SiteNames names_;
  std::optional<SharedLocations> shared_;
  std::optional<CallStacks> stacks_;
  std::optional<HappensBefore> clocks_;
};

}  // namespace

void render_dump(const Trace& trace, Symbolizer& symbolizer, std::ostream& out,
                 const DumpOptions& options) {
  Renderer(trace, symbolizer, options).render(out);
}

}  // namespace ctrlsched::localize

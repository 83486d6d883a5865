// Rendering a traced run as segments between switches (see interleaving.h).
#include "report/interleaving.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace ctrlsched::driver {
namespace {

struct Place {
  std::string file;      // base name, or the raw site when unknown
  std::string function;
  std::uint32_t first = 0, last = 0;
};

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string render(const Place& p) {
  std::string text = p.file;
  if (p.first != 0) {
    text += ":" + std::to_string(p.first);
    if (p.last != p.first) text += "-" + std::to_string(p.last);
  }
  if (!p.function.empty()) text += " (" + p.function + ")";
  return text;
}

class Renderer {
 public:
  Renderer(const localize::Trace& trace, localize::Symbolizer& symbolizer) : trace_(trace), symbolizer_(symbolizer) {}

  void event(const TraceEvent& e) {
    if (!segment_thread_ || *segment_thread_ != e.thread) close(e.thread);
    const EventKind kind = localize::kind_of(e);
    if (e.site == 0 || kind == EventKind::FuncEntry || kind == EventKind::FuncExit || kind == EventKind::Switch) return;
    Place place = locate(e.site);
    last_ = std::string(localize::event_kind_name(e.kind)) + " at " + render(place);
    add(std::move(place));
  }

  // `marker` (a preemption) is completed with what the preempted thread did last.
  void switch_to(ThreadId next, std::optional<std::string> marker) {
    if (marker && segment_thread_ && !last_.empty()) {
      *marker += " after T" + std::to_string(*segment_thread_) + "'s " + last_;
    }
    close(next);
    if (marker) lines.push_back(*marker);
  }

  void finish() { close(std::nullopt); }

  std::vector<std::string> lines;

 private:
  Place locate(std::uint64_t site) {
    const std::uint32_t module = localize::site_module(site);
    const std::uint64_t offset = localize::site_offset(site);
    Place place;
    if (module < trace_.modules.size()) {
      // Sites are return addresses: look up the call instruction just before.
      const localize::SymbolizedSite s = symbolizer_.symbolize(trace_.modules[module].path, offset == 0 ? 0 : offset - 1);
      place.function = s.function;
      place.file = base_name(s.file);
      place.first = place.last = s.file.empty() ? 0 : s.line;
      if (!s.file.empty()) return place;
      place.file = base_name(trace_.modules[module].path);
    } else {
      place.file = "module" + std::to_string(module);
    }
    char hex[32];
    std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
    place.file += hex;
    return place;
  }

  void add(Place place) {
    if (!places_.empty()) {
      Place& back = places_.back();
      // A jump back before the range's first line (the next statement of a caller, another
      // inlined function) starts a new place; a loop inside the range does not.
      if (back.file == place.file && back.function == place.function && back.first != 0 && place.first != 0 &&
          place.first >= back.first) {
        back.first = std::min(back.first, place.first);
        back.last = std::max(back.last, place.last);
        return;
      }
      if (back.file == place.file && back.function == place.function && back.first == place.first) return;
    }
    places_.push_back(std::move(place));
  }

  void close(std::optional<ThreadId> next) {
    if (segment_thread_ && !places_.empty()) {
      std::string line = "T" + std::to_string(*segment_thread_) + " runs ";
      for (std::size_t i = 0; i < places_.size(); ++i) line += (i ? ", " : "") + render(places_[i]);
      lines.push_back(std::move(line));
    }
    places_.clear();
    last_.clear();
    segment_thread_ = next;
  }

  const localize::Trace& trace_;
  localize::Symbolizer& symbolizer_;
  std::optional<ThreadId> segment_thread_;
  std::vector<Place> places_;
  std::string last_;  // "read at file:line (function)": the segment's last event with a site
};

}  // namespace

std::vector<std::string> render_interleaving(const localize::Trace& trace, std::span<const SwitchPoint> switch_log,
                                             localize::Symbolizer& symbolizer) {
  std::vector<SwitchPoint> switches;
  for (const SwitchPoint& p : switch_log) {
    if (is_thread_switch(p)) switches.push_back(p);
  }
  const auto total = static_cast<std::uint64_t>(
      std::count_if(switches.begin(), switches.end(), [](const SwitchPoint& p) { return p.switch_kind() == SwitchKind::Preempt; }));

  Renderer renderer(trace, symbolizer);
  std::size_t next_switch = 0;
  bool aligned = true;
  std::uint64_t preemption = 0;
  for (const TraceEvent& e : trace.events) {
    if (localize::kind_of(e) != EventKind::Switch) {
      renderer.event(e);
      continue;
    }
    const auto to = static_cast<ThreadId>(e.address);
    std::optional<std::string> marker;
    if (aligned && next_switch < switches.size() && switches[next_switch].thread == e.thread &&
        switches[next_switch].target == to) {
      if (switches[next_switch].switch_kind() == SwitchKind::Preempt) {
        marker = "-- preemption " + std::to_string(++preemption) + " of " + std::to_string(total) + ": T" +
                 std::to_string(e.thread) + " -> T" + std::to_string(to);
      }
      ++next_switch;
    } else {
      aligned = false;
    }
    renderer.switch_to(to, std::move(marker));
  }
  renderer.finish();
  return std::move(renderer.lines);
}

}  // namespace ctrlsched::driver

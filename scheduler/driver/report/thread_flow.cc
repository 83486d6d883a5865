// Steps of a traced run in execution order (see thread_flow.h).
#include "report/thread_flow.h"

#include <cstdio>
#include <map>

namespace ctrlsched::driver {
namespace {

struct Where {
  std::string file, function, module;
  std::uint32_t line = 0;
};

class SiteNames {
 public:
  SiteNames(const localize::Trace& trace, localize::Symbolizer& symbolizer) : trace_(trace), symbolizer_(symbolizer) {}

  const Where& at(std::uint64_t site) {
    auto [it, inserted] = cache_.try_emplace(site);
    if (!inserted) return it->second;
    Where& w = it->second;
    const std::uint32_t module = localize::site_module(site);
    const std::uint64_t offset = localize::site_offset(site);
    if (module < trace_.modules.size()) {
      // Sites are return addresses: look up the call instruction just before.
      const localize::SymbolizedSite s = symbolizer_.symbolize(trace_.modules[module].path, offset == 0 ? 0 : offset - 1);
      w.function = s.function;
      if (!s.file.empty() && s.line != 0) {
        w.file = s.file;
        w.line = s.line;
        return w;
      }
      w.module = trace_.modules[module].path;
    } else {
      w.module = "module" + std::to_string(module);
    }
    char hex[32];
    std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
    w.module += hex;
    return w;
  }

 private:
  const localize::Trace& trace_;
  localize::Symbolizer& symbolizer_;
  std::map<std::uint64_t, Where> cache_;  // ordered: nothing here depends on addresses' order
};

}  // namespace

ThreadFlow thread_flow(const localize::Trace& trace, localize::Symbolizer& symbolizer, std::size_t limit) {
  ThreadFlow flow;
  flow.handle = trace.handle;
  flow.truncated = trace.truncated;
  SiteNames names(trace, symbolizer);
  bool switched = false;
  bool merge_allowed = false;  // the last step may take more events (no switch since)
  for (const TraceEvent& e : trace.events) {
    const EventKind kind = localize::kind_of(e);
    if (kind == EventKind::Switch) {
      switched = true;
      merge_allowed = false;
      continue;
    }
    if (e.site == 0 || kind == EventKind::FuncEntry || kind == EventKind::FuncExit) continue;
    const Where& where = names.at(e.site);
    const std::string what(localize::event_kind_name(e.kind));
    if (merge_allowed && !flow.steps.empty()) {
      FlowStep& last = flow.steps.back();
      if (last.thread == e.thread && last.file == where.file && last.line == where.line &&
          last.function == where.function && last.module == where.module) {
        if (last.what.size() < what.size() || last.what.compare(last.what.size() - what.size(), what.size(), what) != 0)
          last.what += ", " + what;
        continue;
      }
    }
    if (flow.steps.size() == limit) {
      flow.truncated = true;
      break;
    }
    flow.steps.push_back(FlowStep{e.thread, what, where.file, where.line, where.function, where.module, switched});
    switched = false;
    merge_allowed = true;
  }
  return flow;
}

}  // namespace ctrlsched::driver

// Steps of a traced run in execution order (see thread_flow.h).
#include "report/thread_flow.h"

#include "report/site_names.h"

namespace ctrlsched::driver {

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
    const SiteName& where = names.at(e.site);
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

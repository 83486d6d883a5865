// Symbolized names of trace sites, each looked up once: the source place of an event as the
// report renderers show it (thread_flow.h, timeline.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"

namespace ctrlsched::driver {

struct SiteName {
  std::string file, function;  // file as the symbolizer gives it, "" if unknown
  std::string module;          // "module+0xoffset" when the site has no source line
  std::uint32_t line = 0;
};

class SiteNames {
 public:
  SiteNames(const localize::Trace& trace, localize::Symbolizer& symbolizer) : trace_(trace), symbolizer_(symbolizer) {}

  const SiteName& at(std::uint64_t site);

 private:
  const localize::Trace& trace_;
  localize::Symbolizer& symbolizer_;
  std::map<std::uint64_t, SiteName> cache_;  // ordered: nothing here depends on addresses' order
};

}  // namespace ctrlsched::driver

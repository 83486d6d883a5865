// Names for the sites and data addresses of one trace, through a Symbolizer, each site asked
// once (internal to the renderers of localize/).
//
// Every site is a return address, so the symbolizer is asked about offset - 1 (see
// symbolizer.h). Data addresses are attributed to the module whose [bias, bias + size) holds
// them, which is right for PIE executables and shared libraries (their first segment is at the
// bias); a non-PIE executable's data is not named.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace.h"

namespace ctrlsched::localize {

class SiteNames {
 public:
  SiteNames(const Trace& trace, Symbolizer& symbolizer) : trace_(trace), symbolizer_(symbolizer) {}

  // "bank.c:20 deposit", "deposit", "bank.c:20", or the raw "module+0xoffset"; "" for site 0.
  std::string location(std::uint64_t site);
  // The function of the site, or the raw "module+0xoffset"; "" for site 0.
  std::string function(std::uint64_t site);
  // The global variable at a data address, or "".
  std::string data(std::uint64_t address);

 private:
  const SymbolizedSite& lookup(std::uint64_t site);
  std::string raw(std::uint64_t site) const;

  const Trace& trace_;
  Symbolizer& symbolizer_;
  std::map<std::uint64_t, SymbolizedSite> sites_;
  std::map<std::uint64_t, std::string> data_;
};

}  // namespace ctrlsched::localize

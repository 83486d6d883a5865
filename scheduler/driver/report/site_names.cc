// Symbolizing trace sites (see site_names.h).
#include "report/site_names.h"

#include <cstdio>

namespace ctrlsched::driver {

const SiteName& SiteNames::at(std::uint64_t site) {
  auto [it, inserted] = cache_.try_emplace(site);
  if (!inserted) return it->second;
  SiteName& w = it->second;
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

}  // namespace ctrlsched::driver

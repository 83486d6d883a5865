// Cached symbolization of sites and data addresses for the renderers (see site_names.h).
#include "site_names.h"

#include "text.h"

namespace ctrlsched::localize {

std::string SiteNames::raw(std::uint64_t site) const {
  std::uint32_t module = site_module(site);
  if (module >= trace_.modules.size()) return "site " + hex(site);
  return trace_.modules[module].path + "+" + hex(site_offset(site));
}

const SymbolizedSite& SiteNames::lookup(std::uint64_t site) {
  auto it = sites_.find(site);
  if (it != sites_.end()) return it->second;
  SymbolizedSite result;
  std::uint32_t module = site_module(site);
  std::uint64_t offset = site_offset(site);
  if (module < trace_.modules.size())
    result = symbolizer_.symbolize(trace_.modules[module].path, offset > 0 ? offset - 1 : 0);
  return sites_.emplace(site, std::move(result)).first->second;
}

std::string SiteNames::location(std::uint64_t site) {
  if (site == 0) return {};
  const SymbolizedSite& s = lookup(site);
  std::string text;
  if (!s.file.empty()) {
    text = base_name(s.file);
    if (s.line != 0) text += ":" + std::to_string(s.line);
  }
  if (!s.function.empty()) text += (text.empty() ? "" : " ") + s.function;
  return text.empty() ? raw(site) : text;
}

std::string SiteNames::function(std::uint64_t site) {
  if (site == 0) return {};
  const SymbolizedSite& s = lookup(site);
  return s.function.empty() ? raw(site) : s.function;
}

std::string SiteNames::data(std::uint64_t address) {
  auto it = data_.find(address);
  if (it != data_.end()) return it->second;
  std::string name;
  for (const TraceModuleInfo& m : trace_.modules) {
    if (address >= m.bias && address - m.bias < m.size) {
      name = symbolizer_.data_symbol(m.path, address - m.bias);
      break;
    }
  }
  return data_.emplace(address, std::move(name)).first->second;
}

}  // namespace ctrlsched::localize

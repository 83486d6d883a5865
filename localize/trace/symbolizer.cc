// The default parts of the Symbolizer interface and the raw symbolizer used by tests.
#include "ctrlsched/localize/symbolizer.h"

#include "text.h"

namespace ctrlsched::localize {

std::string Symbolizer::data_symbol(const std::string&, std::uint64_t) { return {}; }

SymbolizedSite RawSymbolizer::symbolize(const std::string& module_path, std::uint64_t offset) {
  return {module_path + "+" + hex(offset), {}, 0};
}

}  // namespace ctrlsched::localize

// Turning sites (module-relative program counters) and data addresses into names, behind an
// interface so localize/ stays free of DWARF libraries: the driver implements it with libdw,
// tests use RawSymbolizer.
//
// Callers in localize/ pass the pc to look up, not the raw site offset: every site in a trace is
// a return address (of a hook call, an interposed call or a call instruction), so they pass
// offset - 1, which lies inside the call instruction and so on the right line.
#pragma once

#include <cstdint>
#include <string>

namespace ctrlsched::localize {

struct SymbolizedSite {
  std::string function;  // empty if unknown
  std::string file;      // empty if unknown; shown by its base name
  std::uint32_t line = 0;
};

class Symbolizer {
 public:
  virtual ~Symbolizer() = default;
  // `offset` is module-relative (what DWARF tools expect for PIE executables and libraries).
  virtual SymbolizedSite symbolize(const std::string& module_path, std::uint64_t offset) = 0;
  // The name of the global variable at `offset` in the module (offset = address - bias), e.g.
  // "counter" or "table+16"; empty if unknown. Optional: the default knows none.
  virtual std::string data_symbol(const std::string& module_path, std::uint64_t offset);
};

// Names every site "module+0xoffset" (the module path as given) and no data. For tests and for
// binaries without debug information.
class RawSymbolizer final : public Symbolizer {
 public:
  SymbolizedSite symbolize(const std::string& module_path, std::uint64_t offset) override;
};

}  // namespace ctrlsched::localize

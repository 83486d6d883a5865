// Symbolization of "module+0xoffset" frames with libdw (elfutils), done by the driver after the
// run so the shim never pays for it (design decision 5: sites are module-relative pcs).
//
// Offline reporting: each module file is opened once (cached) with its separate debug info found
// the standard way (build-id, .debug, /usr/lib/debug). Anything missing - the file, its debug
// info, the symbol - degrades to the raw frame text; symbolization never throws.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ctrlsched/localize/symbolizer.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

// Splits "path/to/module+0x1a2b" at its last "+0x"; nullopt for free text. The offset is a
// link-time virtual address of the module (the shim subtracts the load bias), so it is looked up
// as file address + the bias libdw chose.
struct ModuleOffset {
  std::string module;
  std::uint64_t offset = 0;
};
std::optional<ModuleOffset> parse_module_offset(std::string_view frame);

// "function (file:line)", "function", or "file:line", from the parts; file shown by base name.
std::string format_location(const std::string& function, const std::string& file, std::uint32_t line);

// True for a file of the compiler's or the C library's headers (libstdc++'s atomic_base.h,
// stl_tree.h, ...). A frame whose line is in one of them, inlined into the user's code, is
// reported at the user's line that called it (Symbolizer::symbolize): the analyses' sites are
// then the lines a user can act on, and accesses of different user lines through one header
// line stay apart.
bool is_toolchain_header(std::string_view path);

class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  SourceLocation symbolize(std::string_view frame);
  // The same for a module path and a module-relative offset (a trace site), looked up as it is.
  SourceLocation symbolize(const std::string& module, std::uint64_t offset);
  // The global variable (ELF object or TLS symbol) that holds the module-relative data address
  // `offset`: "counter", or "table+16" inside an object; "" when no symbol covers it.
  std::string data_symbol(const std::string& module, std::uint64_t offset);
  // A SymbolizeFn bound to this object (which must outlive it).
  SymbolizeFn function();
  // A DataSymbolFn bound to this object (which must outlive it).
  DataSymbolFn data_function();

 private:
  struct Module;
  Module* module(const std::string& path);
  std::map<std::string, std::unique_ptr<Module>> modules_;
  std::map<std::string, SourceLocation, std::less<>> cache_;
  std::map<std::pair<std::string, std::uint64_t>, std::string> data_cache_;
};

// The localize::Symbolizer of trace dumps, ConSeq predictions and shrunk interleavings: libdw
// through the driver's Symbolizer, which must outlive it. Offsets are looked up as given
// (localize/ already steps return addresses back).
class DumpSymbolizer final : public localize::Symbolizer {
 public:
  explicit DumpSymbolizer(driver::Symbolizer& symbolizer) : symbolizer_(symbolizer) {}
  localize::SymbolizedSite symbolize(const std::string& module_path, std::uint64_t offset) override;
  std::string data_symbol(const std::string& module_path, std::uint64_t offset) override;

 private:
  driver::Symbolizer& symbolizer_;
};

}  // namespace ctrlsched::driver

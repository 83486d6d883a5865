// libdw offline symbolization with a per-module and per-frame cache (see symbolizer.h).
#include "report/symbolizer.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace ctrlsched::driver {
namespace {

std::string demangle(const char* name) {
  if (!name) return {};
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !demangled) return name;
  std::string text = demangled;
  std::free(demangled);
  return text;
}

std::string frame_base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = nullptr,
};

// The name of an inlined instance or a function's DIE: its linkage name demangled (through its
// abstract origin or declaration), else its plain name; "" when it has neither.
std::string scope_function_name(Dwarf_Die* scope) {
  Dwarf_Attribute attribute;
  const char* linkage = dwarf_formstring(dwarf_attr_integrate(scope, DW_AT_linkage_name, &attribute));
  if (linkage == nullptr) linkage = dwarf_formstring(dwarf_attr_integrate(scope, DW_AT_MIPS_linkage_name, &attribute));
  if (linkage != nullptr) return demangle(linkage);
  const char* plain = dwarf_diename(scope);
  return plain != nullptr ? plain : "";
}

// The source line of the user's code that `address` was inlined into, when the line libdw gives
// is inside a toolchain header: the inlined scopes around the address, innermost first, each
// name the file and line they were called from; the first of those outside the toolchain's
// headers is the line the user wrote (`hits.load()` rather than atomic_base.h, a map insert
// rather than stl_tree.h, a `std::lock_guard` rather than gthr-default.h). False if every
// caller is a header too, or there is no debug info.
//
// dwarf_getscopes alone does not give the whole chain: past the innermost inlined instance it
// continues with the scopes around that function's abstract definition (for
// __gthread_mutex_lock inlined into std::mutex::lock inlined into std::lock_guard's constructor,
// the compile unit right after the first instance), so the user's call site, two or three
// instances out, was never seen. dwarf_getscopes_die on the innermost scope walks the concrete
// nesting of the DIE tree instead, every inlined instance up to the function it was inlined into.
//
// `function` becomes the function the call site is in: the next inlined instance or function
// outwards. The ELF symbol is the function everything was inlined into, which for a lock_guard
// in a class method called from a std::thread lambda is libstdc++'s _State_impl<...>::_M_run(),
// beside the method's line.
bool user_call_site(Dwfl_Module* module, GElf_Addr address, std::string* file, std::uint32_t* line,
                    std::uint32_t* column, std::string* function) {
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, address, &bias);
  if (cu == nullptr) return false;
  Dwarf_Files* files = nullptr;
  std::size_t file_count = 0;
  if (dwarf_getsrcfiles(cu, &files, &file_count) != 0) return false;
  Dwarf_Die* scopes = nullptr;
  int depth = dwarf_getscopes(cu, address - bias, &scopes);
  if (depth > 0) {
    Dwarf_Die innermost = scopes[0];
    std::free(scopes);
    scopes = nullptr;
    depth = dwarf_getscopes_die(&innermost, &scopes);
  }
  bool found = false;
  for (int i = 0; i < depth && !found; ++i) {
    if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;
    Dwarf_Attribute attribute;
    Dwarf_Word call_file = 0, call_line = 0, call_column = 0;
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attribute), &call_file) != 0 ||
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attribute), &call_line) != 0 ||
        call_file >= file_count)
      continue;
    const char* name = dwarf_filesrc(files, call_file, nullptr, nullptr);
    if (name == nullptr || is_toolchain_header(name)) continue;
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_column, &attribute), &call_column) != 0) call_column = 0;
    *file = name;
    *line = static_cast<std::uint32_t>(call_line);
    *column = static_cast<std::uint32_t>(call_column);
    found = true;
    for (int outer = i + 1; outer < depth; ++outer) {
      const int tag = dwarf_tag(&scopes[outer]);
      if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
      if (std::string caller = scope_function_name(&scopes[outer]); !caller.empty()) *function = std::move(caller);
      break;
    }
  }
  std::free(scopes);
  return found;
}

// The function whose code is at `address` when the compiler inlined it into another: the
// innermost inlined subroutine around the address (its linkage name, demangled, or its plain
// name), "" when the address is not inside one. The ELF symbol at an inlined call's address is
// the function it was inlined into, while its line is the inlined function's own: heldout4's
// blob_handle read "at read_range (blob_handle.cpp:28)" where line 28 is pool_put's, beside an
// assertion headline that named pool_put.
std::string inlined_function(Dwfl_Module* module, GElf_Addr address) {
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, address, &bias);
  if (cu == nullptr) return "";
  Dwarf_Die* scopes = nullptr;
  const int depth = dwarf_getscopes(cu, address - bias, &scopes);
  std::string name;
  for (int i = 0; i < depth; ++i) {
    const int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_subprogram) break;  // the address is in a function's own code
    if (tag != DW_TAG_inlined_subroutine) continue;
    name = scope_function_name(&scopes[i]);
    break;
  }
  std::free(scopes);
  return name;
}

// Whether a compile unit's address ranges hold `address`. libdw answers a line lookup outside
// every unit with the nearest line it has: _start, which has no debug information, came out as
// "_start (std_thread.h:142)" in a C++ test's backtrace.
bool covered_by_debug_info(Dwfl_Module* module, GElf_Addr address) {
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, address, &bias);
  return cu != nullptr && dwarf_haspc(cu, address - bias) > 0;
}

}  // namespace

bool is_toolchain_header(std::string_view path) {
  return path.find("/include/c++/") != std::string_view::npos || path.starts_with("/usr/include/") ||
         path.starts_with("/usr/lib/gcc/") || path.starts_with("/usr/local/include/c++/");
}

struct Symbolizer::Module {
  Dwfl* dwfl = nullptr;
  Dwfl_Module* module = nullptr;
  GElf_Addr bias = 0;
  ~Module() {
    if (dwfl) dwfl_end(dwfl);
  }
};

std::optional<ModuleOffset> parse_module_offset(std::string_view frame) {
  const std::size_t plus = frame.rfind("+0x");
  if (plus == std::string_view::npos || plus == 0) return std::nullopt;
  const std::string_view digits = frame.substr(plus + 3);
  ModuleOffset result;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), result.offset, 16);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  result.module = std::string(frame.substr(0, plus));
  return result;
}

std::string format_location(const std::string& function, const std::string& file, std::uint32_t line) {
  std::string where;
  if (!file.empty()) where = frame_base_name(file) + (line ? ":" + std::to_string(line) : "");
  if (function.empty()) return where;
  return where.empty() ? function : function + " (" + where + ")";
}

Symbolizer::Symbolizer() = default;
Symbolizer::~Symbolizer() = default;

Symbolizer::Module* Symbolizer::module(const std::string& path) {
  if (auto it = modules_.find(path); it != modules_.end()) return it->second.get();
  auto entry = std::make_unique<Module>();
  entry->dwfl = dwfl_begin(&kCallbacks);
  if (entry->dwfl) {
    dwfl_report_begin(entry->dwfl);
    entry->module = dwfl_report_offline(entry->dwfl, path.c_str(), path.c_str(), -1);
    dwfl_report_end(entry->dwfl, nullptr, nullptr);
    if (entry->module) {
      GElf_Addr bias = 0;
      if (dwfl_module_getelf(entry->module, &bias)) {
        entry->bias = bias;
      } else {
        entry->module = nullptr;
      }
    }
  }
  Module* raw = entry.get();
  modules_.emplace(path, std::move(entry));
  return raw;
}

SourceLocation Symbolizer::symbolize(std::string_view frame) {
  if (auto it = cache_.find(frame); it != cache_.end()) return it->second;
  SourceLocation location = raw_location(frame);
  if (const auto parsed = parse_module_offset(frame)) {
    Module* m = module(parsed->module);
    if (m && m->module) {
      const GElf_Addr address = parsed->offset + m->bias;
      GElf_Off symbol_offset = 0;
      GElf_Sym symbol;
      const char* name = dwfl_module_addrinfo(m->module, address, &symbol_offset, &symbol, nullptr, nullptr, nullptr);
      location.function = demangle(name);
      if (Dwfl_Line* line = covered_by_debug_info(m->module, address) ? dwfl_module_getsrc(m->module, address) : nullptr) {
        int line_number = 0, column = 0;
        if (const char* file = dwfl_lineinfo(line, nullptr, &line_number, &column, nullptr, nullptr)) {
          location.file = file;
          location.line = line_number > 0 ? static_cast<std::uint32_t>(line_number) : 0;
          location.column = column > 0 ? static_cast<std::uint32_t>(column) : 0;
        }
      }
      if (is_toolchain_header(location.file)) {
        user_call_site(m->module, address, &location.file, &location.line, &location.column, &location.function);
      } else if (std::string inlined = inlined_function(m->module, address); !inlined.empty()) {
        location.function = std::move(inlined);  // the line is the inlined function's: so is the name
      }
      if (location.function.empty() && location.file.empty()) {
        location.text = std::string(frame);  // nothing known: keep the raw frame
      } else {
        location.text = format_location(location.function, location.file, location.line);
        if (location.file.empty()) location.text += " (" + frame_base_name(parsed->module) + ")";
      }
    }
  }
  cache_.emplace(std::string(frame), location);
  return location;
}

SourceLocation Symbolizer::symbolize(const std::string& module, std::uint64_t offset) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
  return symbolize(module + hex);
}

std::string Symbolizer::data_symbol(const std::string& path, std::uint64_t offset) {
  const auto key = std::make_pair(path, offset);
  if (auto it = data_cache_.find(key); it != data_cache_.end()) return it->second;
  std::string name;
  Module* m = module(path);
  if (m && m->module) {
    GElf_Off symbol_offset = 0;
    GElf_Sym symbol;
    const char* found = dwfl_module_addrinfo(m->module, offset + m->bias, &symbol_offset, &symbol,
                                             nullptr, nullptr, nullptr);
    const int type = found ? GELF_ST_TYPE(symbol.st_info) : STT_NOTYPE;
    // Only data symbols, and only when the address lies inside the object (libdw may answer
    // with the nearest symbol below an address no symbol covers).
    const bool data = type == STT_OBJECT || type == STT_TLS || type == STT_COMMON;
    if (data && (symbol_offset < symbol.st_size || (symbol.st_size == 0 && symbol_offset == 0))) {
      name = demangle(found);
      if (symbol_offset != 0) name += "+" + std::to_string(symbol_offset);
    }
  }
  data_cache_.emplace(key, name);
  return name;
}

SymbolizeFn Symbolizer::function() {
  return [this](std::string_view frame) { return symbolize(frame); };
}

DataSymbolFn Symbolizer::data_function() {
  return [this](const std::string& module, std::uint64_t offset) { return data_symbol(module, offset); };
}

localize::SymbolizedSite DumpSymbolizer::symbolize(const std::string& module_path, std::uint64_t offset) {
  SourceLocation location = symbolizer_.symbolize(module_path, offset);
  return {std::move(location.function), std::move(location.file), location.line};
}

std::string DumpSymbolizer::data_symbol(const std::string& module_path, std::uint64_t offset) {
  return symbolizer_.data_symbol(module_path, offset);
}

}  // namespace ctrlsched::driver

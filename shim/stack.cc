// Module snapshot and stack capture. format_location runs inside signal handlers, so it only
// reads the snapshot and formats by hand.
#include "stack.h"

#include "runtime.h"

#include <execinfo.h>
#include <link.h>
#include <unistd.h>

#include <cstring>

namespace ctrlsched::shim {

namespace {

struct Module {
  std::uintptr_t bias;
  std::uintptr_t start;
  std::uintptr_t end;
  char path[200];
  bool runtime_library;  // see in_runtime_library
};

constexpr int kMaxModules = static_cast<int>(kMaxRecordedModules);
Module g_modules[kMaxModules];
int g_module_count = 0;
std::uintptr_t g_shim_start = 0;
std::uintptr_t g_shim_end = 0;

int add_module(dl_phdr_info* info, size_t, void*) {
  if (g_module_count == kMaxModules) return 1;
  std::uintptr_t lo = ~std::uintptr_t{0}, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    std::uintptr_t s = info->dlpi_addr + ph.p_vaddr;
    if (s < lo) lo = s;
    if (s + ph.p_memsz > hi) hi = s + ph.p_memsz;
  }
  if (hi == 0) return 0;
  Module& m = g_modules[g_module_count++];
  m.bias = info->dlpi_addr;
  m.start = lo;
  m.end = hi;
  const char* name = info->dlpi_name;
  if (name == nullptr || name[0] == '\0') {
    ssize_t n = readlink("/proc/self/exe", m.path, sizeof m.path - 1);
    m.path[n > 0 ? n : 0] = '\0';
  } else {
    std::size_t n = std::strlen(name);
    if (n >= sizeof m.path) n = sizeof m.path - 1;
    std::memcpy(m.path, name, n);
    m.path[n] = '\0';
  }
  const char* base = std::strrchr(m.path, '/');
  base = base ? base + 1 : m.path;
  m.runtime_library = std::strncmp(base, "libc.so", 7) == 0 || std::strncmp(base, "ld-linux", 8) == 0 ||
                      std::strncmp(base, "libgcc_s", 8) == 0;
  auto self = reinterpret_cast<std::uintptr_t>(&add_module);
  if (self >= lo && self < hi) {
    g_shim_start = lo;
    g_shim_end = hi;
  }
  return 0;
}

char* append_hex(char* out, char* end, std::uintptr_t value) {
  char digits[2 * sizeof value];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value);
  while (n && out < end) *out++ = digits[--n];
  return out;
}

}  // namespace

void scan_modules() {
  g_module_count = 0;
  dl_iterate_phdr(add_module, nullptr);
}

void refresh_module_table(RunRecord* record) {
  scan_modules();
  publish_module_table(record);
}

void publish_module_table(RunRecord* record) {
  if (record == nullptr) return;
  ModuleTable& table = record->modules;
  table.count = 0;
  for (int i = 0; i < g_module_count && table.count < kMaxRecordedModules; ++i) {
    TraceModule& m = table.modules[table.count++];
    std::memset(m.path, 0, sizeof m.path);
    std::strncpy(m.path, g_modules[i].path, sizeof m.path - 1);
    // [bias, bias + size) covers the whole mapping also for non-PIE executables (bias 0).
    m.bias = g_modules[i].bias;
    m.size = g_modules[i].end - g_modules[i].bias;
  }
}

std::uint64_t site_of(std::uintptr_t pc) {
  static int last = 0;
  if (last < g_module_count && pc >= g_modules[last].start && pc < g_modules[last].end)
    return (static_cast<std::uint64_t>(last) << kSiteModuleShift) | (pc - g_modules[last].bias);
  for (int i = 0; i < g_module_count; ++i) {
    if (pc < g_modules[i].start || pc >= g_modules[i].end) continue;
    last = i;
    return (static_cast<std::uint64_t>(i) << kSiteModuleShift) | (pc - g_modules[i].bias);
  }
  return 0;
}

bool in_shim(std::uintptr_t pc) { return pc >= g_shim_start && pc < g_shim_end; }

bool in_runtime_library(std::uintptr_t pc) {
  for (int i = 0; i < g_module_count; ++i)
    if (pc >= g_modules[i].start && pc < g_modules[i].end) return g_modules[i].runtime_library;
  return false;
}

void format_location(Frame& out, std::uintptr_t pc) {
  char* p = out.text;
  char* end = out.text + sizeof out.text - 1;
  const Module* module = nullptr;
  for (int i = 0; i < g_module_count; ++i)
    if (pc >= g_modules[i].start && pc < g_modules[i].end) module = &g_modules[i];
  if (module) {
    for (const char* s = module->path; *s && p < end; ++s) *p++ = *s;
    if (p < end) *p++ = '+';
    pc -= module->bias;
  }
  if (p + 2 < end) { *p++ = '0'; *p++ = 'x'; }
  p = append_hex(p, end, pc);
  *p = '\0';
}

void warm_up_unwinder() {
  void* pcs[2];
  tls_shim_internal = true;
  backtrace(pcs, 2);
  tls_shim_internal = false;
}

void capture_stack(Stack& out, std::uintptr_t interrupted_pc) {
  void* pcs[48];
  tls_shim_internal = true;
  int n = backtrace(pcs, 48);
  tls_shim_internal = false;
  int first = 0;
  for (int i = 0; interrupted_pc != 0 && i < n; ++i) {
    if (reinterpret_cast<std::uintptr_t>(pcs[i]) == interrupted_pc) {
      first = i;
      break;
    }
  }
  out.count = 0;
  for (int i = first; i < n && out.count < kMaxFrames; ++i) {
    auto pc = reinterpret_cast<std::uintptr_t>(pcs[i]);
    if (in_shim(pc)) continue;
    // Return addresses point after the call; step back into it so the line is the call's. The
    // interrupted frame's pc is the faulting instruction itself.
    const bool exact = interrupted_pc != 0 && i == first && pc == interrupted_pc;
    format_location(out.frames[out.count++], exact ? pc : pc - 1);
  }
}

}  // namespace ctrlsched::shim

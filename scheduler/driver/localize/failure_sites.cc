// Static failure-site functions (failure_sites.h).
#include "localize/failure_sites.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <span>

namespace ctrlsched::driver {

namespace {

struct Section {
  std::string name;
  std::uint64_t address = 0;
  std::span<const std::uint8_t> bytes;  // empty for NOBITS
  bool executable = false;
};

struct Symbol {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  bool defined_function = false;
};

// "exit@GLIBC_2.2.5" → "exit".
std::string base_name(const char* name) {
  std::string text = name ? name : "";
  if (auto at = text.find('@'); at != std::string::npos) text.resize(at);
  return text;
}

std::int32_t rel32(std::span<const std::uint8_t> bytes, std::size_t at) {
  std::int32_t value = 0;
  std::memcpy(&value, bytes.data() + at, 4);
  return value;
}

class ElfFile {
 public:
  ~ElfFile() {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) ::close(fd_);
  }
  bool open(const std::string& path, std::string& error) {
    if (elf_version(EV_CURRENT) == EV_NONE) return fail(error, "libelf is too old");
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return fail(error, path + ": " + std::strerror(errno));
    elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
    if (!elf_ || elf_kind(elf_) != ELF_K_ELF) return fail(error, path + ": not an ELF file");
    std::size_t names = 0;
    if (elf_getshdrstrndx(elf_, &names) != 0) return fail(error, path + ": no section names");
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf_, scn)) != nullptr;) {
      GElf_Shdr header;
      if (!gelf_getshdr(scn, &header)) continue;
      Section s;
      s.name = base_name(elf_strptr(elf_, names, header.sh_name));
      s.address = header.sh_addr;
      s.executable = (header.sh_flags & SHF_EXECINSTR) != 0;
      if (header.sh_type != SHT_NOBITS) {
        if (Elf_Data* data = elf_getdata(scn, nullptr); data && data->d_buf)
          s.bytes = {static_cast<const std::uint8_t*>(data->d_buf), data->d_size};
      }
      if (header.sh_type == SHT_SYMTAB || header.sh_type == SHT_DYNSYM)
        read_symbols(scn, header, header.sh_type == SHT_SYMTAB ? symtab_ : dynsym_);
      if (header.sh_type == SHT_RELA) relocations_.push_back({scn, header});
      sections_.push_back(std::move(s));
    }
    return true;
  }

  const std::vector<Section>& sections() const { return sections_; }
  const std::vector<Symbol>& functions() const { return symtab_.empty() ? dynsym_ : symtab_; }
  const std::vector<Symbol>& symtab() const { return symtab_; }

  // GOT slot address → imported symbol name, from JUMP_SLOT and GLOB_DAT relocations.
  std::map<std::uint64_t, std::string> imported_slots() const {
    std::map<std::uint64_t, std::string> slots;
    for (const auto& [scn, header] : relocations_) {
      Elf_Data* data = elf_getdata(scn, nullptr);
      Elf_Scn* symbols = elf_getscn(elf_, header.sh_link);
      GElf_Shdr symbols_header;
      if (!data || !symbols || !gelf_getshdr(symbols, &symbols_header)) continue;
      Elf_Data* symbol_data = elf_getdata(symbols, nullptr);
      if (!symbol_data) continue;
      const std::size_t count = header.sh_entsize ? header.sh_size / header.sh_entsize : 0;
      for (std::size_t i = 0; i < count; ++i) {
        GElf_Rela rela;
        if (!gelf_getrela(data, static_cast<int>(i), &rela)) continue;
        const auto type = GELF_R_TYPE(rela.r_info);
        if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
        GElf_Sym sym;
        if (!gelf_getsym(symbol_data, static_cast<int>(GELF_R_SYM(rela.r_info)), &sym)) continue;
        slots[rela.r_offset] = base_name(elf_strptr(elf_, symbols_header.sh_link, sym.st_name));
      }
    }
    return slots;
  }

 private:
  static bool fail(std::string& error, std::string what) {
    error = std::move(what);
    return false;
  }
  void read_symbols(Elf_Scn* scn, const GElf_Shdr& header, std::vector<Symbol>& out) {
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data || header.sh_entsize == 0) return;
    const std::size_t count = header.sh_size / header.sh_entsize;
    for (std::size_t i = 0; i < count; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym)) continue;
      if (GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
      out.push_back({base_name(elf_strptr(elf_, header.sh_link, sym.st_name)), sym.st_value, sym.st_size,
                     sym.st_shndx != SHN_UNDEF && sym.st_value != 0});
    }
  }

  int fd_ = -1;
  Elf* elf_ = nullptr;
  std::vector<Section> sections_;
  std::vector<Symbol> symtab_, dynsym_;
  std::vector<std::pair<Elf_Scn*, GElf_Shdr>> relocations_;
};

const Section* section_at(const std::vector<Section>& sections, std::uint64_t address) {
  for (const Section& s : sections)
    if (!s.bytes.empty() && s.address <= address && address - s.address < s.bytes.size()) return &s;
  return nullptr;
}

}  // namespace

std::optional<std::vector<FailureSiteFunction>> find_failure_site_functions(
    const std::string& elf_path, const std::vector<std::string>& extra_calls, std::string* error) {
  ElfFile elf;
  std::string problem;
  if (!elf.open(elf_path, problem)) {
    if (error) *error = problem;
    return std::nullopt;
  }
  std::set<std::string> wanted(kDefaultFailureCalls.begin(), kDefaultFailureCalls.end());
  wanted.insert(extra_calls.begin(), extra_calls.end());

  std::map<std::uint64_t, std::string> direct;  // code address of a defined failure function
  for (const Symbol& s : elf.functions())
    if (s.defined_function && wanted.contains(s.name)) direct.emplace(s.address, s.name);
  std::map<std::uint64_t, std::string> slots;   // GOT slot of an imported failure function
  for (auto& [slot, name] : elf.imported_slots())
    if (wanted.contains(name)) slots.emplace(slot, name);

  // What a PLT stub at `address` jumps through: skip endbr64 and a bnd prefix, expect ff 25.
  auto stub_target = [&](std::uint64_t address) -> std::optional<std::string> {
    const Section* s = section_at(elf.sections(), address);
    if (!s || !s->executable || !s->name.starts_with(".plt")) return std::nullopt;
    std::size_t at = address - s->address;
    auto has = [&](std::size_t n) { return at + n <= s->bytes.size(); };
    if (has(4) && std::memcmp(s->bytes.data() + at, "\xf3\x0f\x1e\xfa", 4) == 0) at += 4;
    if (has(1) && s->bytes[at] == 0xf2) at += 1;
    if (!has(6) || s->bytes[at] != 0xff || s->bytes[at + 1] != 0x25) return std::nullopt;
    const std::uint64_t slot = s->address + at + 6 + static_cast<std::int64_t>(rel32(s->bytes, at + 2));
    if (auto it = slots.find(slot); it != slots.end()) return it->second;
    return std::nullopt;
  };

  std::vector<FailureSiteFunction> found;
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;  // aliases share code
  for (const Symbol& f : elf.functions()) {
    if (!f.defined_function || f.size == 0 || !seen.insert({f.address, f.size}).second) continue;
    const Section* s = section_at(elf.sections(), f.address);
    if (!s || !s->executable) continue;
    const std::size_t begin = f.address - s->address;
    const std::size_t end = std::min<std::size_t>(begin + f.size, s->bytes.size());
    std::set<std::string> calls;
    for (std::size_t at = begin; at + 5 <= end; ++at) {
      const std::uint64_t pc = s->address + at;
      if (s->bytes[at] == 0xe8) {
        const std::uint64_t target = pc + 5 + static_cast<std::int64_t>(rel32(s->bytes, at + 1));
        if (auto it = direct.find(target); it != direct.end()) calls.insert(it->second);
        else if (auto name = stub_target(target)) calls.insert(*name);
      } else if (s->bytes[at] == 0xff && at + 6 <= end && s->bytes[at + 1] == 0x15) {
        const std::uint64_t slot = pc + 6 + static_cast<std::int64_t>(rel32(s->bytes, at + 2));
        if (auto it = slots.find(slot); it != slots.end()) calls.insert(it->second);
      }
    }
    if (!calls.empty()) found.push_back({f.name, f.address, f.address + f.size, {calls.begin(), calls.end()}});
  }
  // GCC moves the unlikely path of a function, where calls to noreturn functions such as abort
  // and __assert_fail usually sit, into a separate "f.cold" symbol; that code runs in f's
  // activation, so f is a failure-site function too.
  std::vector<FailureSiteFunction> parents;
  for (const FailureSiteFunction& part : found) {
    const auto cold = part.name.find(".cold");
    if (cold == std::string::npos) continue;
    const std::string parent = part.name.substr(0, cold);
    auto symbol = std::ranges::find_if(elf.functions(), [&](const Symbol& s) {
      return s.defined_function && s.size != 0 && s.name == parent;
    });
    if (symbol == elf.functions().end()) continue;
    parents.push_back({parent, symbol->address, symbol->address + symbol->size, part.calls});
  }
  for (FailureSiteFunction& parent : parents) {
    auto same = std::ranges::find_if(found, [&](const FailureSiteFunction& f) { return f.low == parent.low; });
    if (same == found.end()) {
      found.push_back(std::move(parent));
      continue;
    }
    std::set<std::string> calls(same->calls.begin(), same->calls.end());
    calls.insert(parent.calls.begin(), parent.calls.end());
    same->calls.assign(calls.begin(), calls.end());
  }
  std::ranges::sort(found, {}, [](const FailureSiteFunction& f) { return std::pair(f.low, f.name); });
  return found;
}

}  // namespace ctrlsched::driver

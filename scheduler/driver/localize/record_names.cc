// Site and data names of a run record for the localization reports (see record_names.h).
#include "localize/record_names.h"

#include <cinttypes>
#include <algorithm>
#include <cstdio>
#include <cstring>

namespace ctrlsched::driver {

RecordNames::RecordNames(const RunRecord& record, SymbolizeFn symbolize, DataSymbolFn data_symbol)
    : symbolize_(std::move(symbolize)), data_symbol_(std::move(data_symbol)) {
  const std::uint32_t count = std::min<std::uint32_t>(record.modules.count, kMaxRecordedModules);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TraceModule& m = record.modules.modules[i];
    modules_.push_back({std::string(m.path, ::strnlen(m.path, sizeof m.path)), m.bias, m.size});
  }
}

std::string RecordNames::site(std::uint64_t site) const {
  const std::uint64_t module = site >> kSiteModuleShift;
  const std::uint64_t offset = site & kSiteOffsetMask;
  if (site == 0 || module >= modules_.size()) return "?";
  char frame[64];
  std::snprintf(frame, sizeof frame, "+0x%" PRIx64, offset > 0 ? offset - 1 : 0);
  const std::string raw = modules_[module].path + frame;
  if (!symbolize_) return raw;
  const SourceLocation where = symbolize_(raw);
  std::string text;
  if (!where.file.empty()) {
    const std::size_t slash = where.file.rfind('/');
    text = slash == std::string::npos ? where.file : where.file.substr(slash + 1);
    if (where.line != 0) text += ":" + std::to_string(where.line);
  }
  if (!where.function.empty()) text += (text.empty() ? "" : " ") + where.function;
  return text.empty() ? where.text : text;
}

SourceLocation RecordNames::source(std::uint64_t site) const {
  const std::uint64_t module = site >> kSiteModuleShift;
  const std::uint64_t offset = site & kSiteOffsetMask;
  if (site == 0 || module >= modules_.size() || !symbolize_) return {};
  char frame[64];
  std::snprintf(frame, sizeof frame, "+0x%" PRIx64, offset > 0 ? offset - 1 : 0);
  return symbolize_(modules_[module].path + frame);
}

std::string RecordNames::statement(std::uint64_t site) const {
  const SourceLocation where = source(site);
  if (where.file.empty() || where.line == 0) return "";
  // The column tells two accesses of one line apart (`answered_ += handler_->handle(r)`), while
  // the copies of one access inlined into two callers share it.
  return where.file + ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
}

std::string RecordNames::data(std::uint64_t address) const {
  if (!data_symbol_) return {};
  for (const Module& m : modules_)
    if (address >= m.bias && address - m.bias < m.size) return data_symbol_(m.path, address - m.bias);
  return {};
}

std::string RecordNames::location(std::uint64_t address) const {
  std::string name = data(address);
  if (!name.empty()) return name;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%" PRIx64, address);
  return hex;
}

}  // namespace ctrlsched::driver

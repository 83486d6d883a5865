// Names for the sites and data addresses of one run record, for the localization reports:
// "bank.c:18 deposit" for a site, "balance" for a global. The module table is copied, so the
// names outlive the record; runs of one binary share their module table (no address-space
// randomization, deterministic loading), so one RecordNames serves a whole exploration.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ctrlsched/run_record.h"
#include "runs/run_result.h"

namespace ctrlsched::driver {

// The global variable at a module-relative data offset ("counter", "table+16"), "" if none
// (driver::Symbolizer::data_symbol).
using DataSymbolFn = std::function<std::string(const std::string& module, std::uint64_t offset)>;

class RecordNames {
 public:
  struct Module {
    std::string path;
    std::uint64_t bias = 0;
    std::uint64_t size = 0;
  };

  // Empty functions leave names raw ("module+0xoffset") and data unnamed.
  RecordNames(const RunRecord& record, SymbolizeFn symbolize, DataSymbolFn data_symbol = {});
  // From a module table kept elsewhere (the run store keeps one per generation).
  RecordNames(std::vector<Module> modules, SymbolizeFn symbolize, DataSymbolFn data_symbol = {})
      : modules_(std::move(modules)), symbolize_(std::move(symbolize)), data_symbol_(std::move(data_symbol)) {}
  const std::vector<Module>& modules() const { return modules_; }

  // "file:line function" of a site (a return address: looked up at site - 1), whichever parts
  // are known; the raw frame when nothing is; "?" for site 0 or an unknown module.
  std::string site(std::uint64_t site) const;
  // The source statement of a site, "path/to/file.c:18:9" (file, line and column; column 0 when
  // unknown), or "" when the debug information does not say: the copies of one access inlined
  // into two callers share it.
  std::string statement(std::uint64_t site) const;
  // The site's source location (file and line empty / 0 when the debug information does not say).
  SourceLocation source(std::uint64_t site) const;
  // The global holding `address` ("balance", "table+16"), or "" (heap, stack, unknown).
  std::string data(std::uint64_t address) const;
  // data(address), or the address in hex when it names no global.
  std::string location(std::uint64_t address) const;

 private:
  std::vector<Module> modules_;
  SymbolizeFn symbolize_;
  DataSymbolFn data_symbol_;
};

}  // namespace ctrlsched::driver

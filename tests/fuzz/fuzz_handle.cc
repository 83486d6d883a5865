// Fuzz target: the run-handle parser (ctrlsched/run_spec.h), which reads the handle a user
// copies from a report into `ctrlsched replay <handle>` (and the handle line of schedule files).
//
// Properties beyond "no crash, no leak, no undefined behaviour":
//  - a rejection has a non-empty reason (made one line by the driver: cli/error_line.h);
//  - an accepted handle survives a round trip: to_handle() of its spec parses back to the same
//    spec, and printing that again gives the same text (one canonical spelling per spec).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ctrlsched/run_spec.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  std::optional<ctrlsched::RunSpec> spec = ctrlsched::parse_handle(text, &error);
  if (!spec) {
    FUZZ_CHECK(!error.empty());
    return 0;
  }
  std::string canonical = ctrlsched::to_handle(*spec);
  std::optional<ctrlsched::RunSpec> again = ctrlsched::parse_handle(canonical);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*again == *spec);
  FUZZ_CHECK(ctrlsched::to_handle(*again) == canonical);
  return 0;
}

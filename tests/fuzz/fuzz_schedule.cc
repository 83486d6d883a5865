// Fuzz target: the schedule-file parser (ctrlsched/schedule.h), which reads files users pass
// to `ctrlsched replay --schedule` and the schedules saved under .ctrlsched/schedules.
//
// Properties beyond "no crash, no leak, no undefined behaviour":
//  - a rejection has a non-empty reason (the driver prints it after "ctrlsched: ", on one line:
//    cli/error_line.h);
//  - an accepted file survives a round trip: to_text() of it parses back to the same schedule.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ctrlsched/schedule.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  std::optional<ctrlsched::Schedule> schedule = ctrlsched::parse_schedule(text, &error);
  if (!schedule) {
    FUZZ_CHECK(!error.empty());
    return 0;
  }
  std::string again_error;
  std::optional<ctrlsched::Schedule> again = ctrlsched::parse_schedule(ctrlsched::to_text(*schedule), &again_error);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->handle == schedule->handle);
  FUZZ_CHECK(again->hash == schedule->hash);
  FUZZ_CHECK(again->decisions == schedule->decisions);
  return 0;
}

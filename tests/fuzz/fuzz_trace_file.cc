// Fuzz target: the trace-file reader (ctrlsched/localize/trace_file.h) and what `ctrlsched trace
// --dump FILE` does with an accepted file (the readable dump, with every option on and off).
//
// The reader takes a path, so each input is written to a memfd and read back through
// /proc/self/fd/N: the code under test is exactly the one the command runs, file size checks
// included.
//
// Properties beyond "no crash, no leak, no undefined behaviour":
//  - a rejection has a one-line reason that starts with the path;
//  - an accepted file can be written again and read back with the same handle, hash, modules
//    and events.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "ctrlsched/localize/dump.h"
#include "ctrlsched/localize/symbolizer.h"
#include "ctrlsched/localize/trace_file.h"
#include "fuzz_check.h"

namespace {

// One memfd for the input and one for the rewritten file, reused by every input.
struct MemFile {
  int fd = -1;
  std::string path;
  explicit MemFile(const char* name) {
    fd = memfd_create(name, 0);
    if (fd < 0) std::abort();
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  void replace(const std::uint8_t* data, std::size_t size) const {
    if (ftruncate(fd, 0) != 0) std::abort();
    std::size_t done = 0;
    while (done < size) {
      ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const MemFile input("fuzz-trace-input");
  static const MemFile rewritten("fuzz-trace-rewritten");
  input.replace(data, size);

  namespace loc = ctrlsched::localize;
  loc::Expected<loc::Trace> trace = loc::read_trace_file(input.path);
  if (!trace) {
    FUZZ_CHECK(trace.error().rfind(input.path + ": ", 0) == 0);
    FUZZ_CHECK(trace.error().find('\n') == std::string::npos);
    return 0;
  }

  loc::RawSymbolizer symbolizer;
  std::ostringstream sink;
  loc::render_dump(*trace, symbolizer, sink);
  loc::DumpOptions everything;
  everything.only_shared = true;
  everything.func_events = true;
  everything.vector_clocks = true;
  everything.stacks = true;
  loc::render_dump(*trace, symbolizer, sink, everything);

  rewritten.replace(nullptr, 0);
  FUZZ_CHECK(loc::write_trace_file(rewritten.path, *trace).has_value());
  loc::Expected<loc::Trace> again = loc::read_trace_file(rewritten.path);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->handle == trace->handle);
  FUZZ_CHECK(again->schedule_hash == trace->schedule_hash);
  FUZZ_CHECK(again->modules.size() == trace->modules.size());
  FUZZ_CHECK(again->events.size() == trace->events.size());
  return 0;
}

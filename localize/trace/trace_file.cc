// Trace file reading and writing (format version 2, and reading version 1; ctrlsched/trace_format.h).
//
// The file is the fixed-size records written as they are in memory: the format is little-endian
// and so is every target this project supports, which the static_assert below pins down. Reading
// checks the header, then that the file size is exactly what the counts announce, before it
// allocates anything proportional to a count.
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include "ctrlsched/localize/trace_file.h"

namespace ctrlsched::localize {

static_assert(std::endian::native == std::endian::little,
              "trace files are little-endian and read by copying records");

namespace {

// Module tables have at most kMaxRecordedModules entries; allow some room for other writers but
// refuse absurd counts before allocating.
constexpr std::uint32_t kMaxFileModules = 4096;

template <std::size_t N>
std::string fixed_string(const char (&field)[N]) {
  return std::string(field, strnlen(field, N));
}

template <std::size_t N>
void copy_fixed(char (&field)[N], const std::string& text) {
  std::memset(field, 0, N);
  std::memcpy(field, text.data(), text.size() < N ? text.size() : N - 1);
}

Unexpected fail(const std::string& path, const std::string& what) { return {path + ": " + what}; }

std::string plural(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

// Rejects what would make analyses misbehave: kinds this build does not know, and thread ids
// beyond kMaxTraceThreads (they size vector clocks).
std::string invalid_event(const TraceEvent& e) {
  if (!is_known_kind(e.kind)) return "unknown kind " + std::to_string(e.kind);
  if (e.thread >= kMaxTraceThreads) return "thread id " + std::to_string(e.thread) + " out of range";
  EventKind k = kind_of(e);
  bool names_thread = k == EventKind::ThreadCreate || k == EventKind::ThreadJoin || k == EventKind::Switch;
  if (names_thread && e.address >= kMaxTraceThreads)
    return "thread id " + std::to_string(e.address) + " out of range";
  return {};
}

}  // namespace

Expected<Trace> read_trace_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::streamoff end = in.tellg();
  if (end < 0) return fail(path, "cannot read (not a regular file?)");
  auto file_size = static_cast<std::uint64_t>(end);
  in.seekg(0);

  TraceFileHeader header{};
  if (file_size < sizeof header)
    return fail(path, "short file: " + plural(file_size, "byte") + ", the header needs " +
                          std::to_string(sizeof header));
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  if (!in) return fail(path, "read error in the header");
  if (std::memcmp(header.magic, kTraceFileMagic, sizeof header.magic) != 0)
    return fail(path, "bad magic (not a ctrlsched trace file)");
  if (header.version != kTraceFileVersion && header.version != 1)
    return fail(path, "unsupported trace format version " + std::to_string(header.version) +
                          " (this build reads 1 and " + std::to_string(kTraceFileVersion) + ")");
  // Version 1 events lack the trailing value; they are widened with the value unknown.
  const bool v1 = header.version == 1;
  const std::uint64_t event_bytes = v1 ? sizeof(TraceEventV1) : sizeof(TraceEvent);
  if (header.module_count > kMaxFileModules)
    return fail(path, "module count " + std::to_string(header.module_count) + " out of range");

  std::uint64_t modules_end = sizeof header + std::uint64_t{header.module_count} * sizeof(TraceModule);
  if (file_size < modules_end)
    return fail(path, "short file: " + plural(file_size, "byte") + ", the header and " +
                          plural(header.module_count, "module") + " need " +
                          std::to_string(modules_end));
  std::uint64_t events_bytes = file_size - modules_end;
  std::uint64_t present = events_bytes / event_bytes;
  if (events_bytes % event_bytes != 0 || present != header.event_count)
    return fail(path, "event count mismatch: header says " + plural(header.event_count, "event") +
                          ", the file holds " + std::to_string(present) +
                          (events_bytes % event_bytes != 0 ? " and a partial one" : ""));

  Trace trace;
  trace.handle = fixed_string(header.handle);
  trace.schedule_hash = header.schedule_hash;
  trace.truncated = header.truncated != 0;
  trace.modules.reserve(header.module_count);
  for (std::uint32_t i = 0; i < header.module_count; ++i) {
    TraceModule m{};
    in.read(reinterpret_cast<char*>(&m), sizeof m);
    if (!in) return fail(path, "read error in module " + std::to_string(i));
    trace.modules.push_back({fixed_string(m.path), m.bias, m.size});
  }
  trace.events.resize(header.event_count);
  if (v1) {
    trace.has_values = false;
    std::vector<TraceEventV1> old(header.event_count);
    in.read(reinterpret_cast<char*>(old.data()),
            static_cast<std::streamsize>(header.event_count * sizeof(TraceEventV1)));
    for (std::size_t i = 0; i < old.size(); ++i) {
      const TraceEventV1& o = old[i];
      trace.events[i] = TraceEvent{o.kind, o.size, o.aux, o.thread, o.address, o.site, 0};
    }
  } else {
    in.read(reinterpret_cast<char*>(trace.events.data()),
            static_cast<std::streamsize>(header.event_count * sizeof(TraceEvent)));
  }
  if (!in) return fail(path, "read error in the events");
  for (std::size_t i = 0; i < trace.events.size(); ++i)
    if (std::string why = invalid_event(trace.events[i]); !why.empty())
      return fail(path, "event " + std::to_string(i) + ": " + why);
  return trace;
}

Expected<void> write_trace_file(const std::string& path, const Trace& trace) {
  TraceFileHeader header{};
  std::memcpy(header.magic, kTraceFileMagic, sizeof header.magic);
  header.version = kTraceFileVersion;
  header.module_count = static_cast<std::uint32_t>(trace.modules.size());
  header.event_count = trace.events.size();
  header.truncated = trace.truncated ? 1 : 0;
  header.schedule_hash = trace.schedule_hash;
  copy_fixed(header.handle, trace.handle);

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return fail(path, std::string("cannot create: ") + std::strerror(errno));
  out.write(reinterpret_cast<const char*>(&header), sizeof header);
  for (const TraceModuleInfo& info : trace.modules) {
    TraceModule m{};
    copy_fixed(m.path, info.path);
    m.bias = info.bias;
    m.size = info.size;
    out.write(reinterpret_cast<const char*>(&m), sizeof m);
  }
  out.write(reinterpret_cast<const char*>(trace.events.data()),
            static_cast<std::streamsize>(trace.events.size() * sizeof(TraceEvent)));
  out.close();
  if (!out) return fail(path, std::string("write error: ") + std::strerror(errno));
  return {};
}

}  // namespace ctrlsched::localize

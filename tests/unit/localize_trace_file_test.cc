// Trace files: a round trip keeps everything, and every kind of damage is refused with a
// one-line reason naming the file. from_region: the driver's path from shared memory.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "ctrlsched/localize/trace_file.h"
#include "localize_trace_builder.h"

using namespace ctrlsched;
using namespace ctrlsched::localize;
using ctrlsched::localize::testing::TraceBuilder;

namespace {

// A file name unique to this process and test, removed at the end of the scope.
struct TempFile {
  explicit TempFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() /
              ("ctrlsched_localize_" + std::to_string(::getpid()) + "_" + name))
                 .string()) {}
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

Trace sample_trace() {
  TraceBuilder b;
  b.trace().handle = "17:random@9f3a2b1c0d4e5f67";
  b.trace().schedule_hash = 0x9f3a2b1c0d4e5f67;
  b.trace().truncated = true;
  b.trace().modules = {{"/work/bank_test", 0x555555554000, 0x4028},
                       {"/lib/x86_64-linux-gnu/libc.so.6", 0x7ffff7c00000, 0x1e0000}};
  b.create(0, 1, make_site(0, 0x1234));
  b.start(1);
  b.write(1, 0x5555555580a0, make_site(0, 0x1180), 8, 0x1122334455667788);
  b.acquire(1, 0x7fffffffe010, WaitKind::Barrier, 3, make_site(1, 0x99));
  b.switch_to(1, 0);
  return std::move(b.trace());
}

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool same_events(const std::vector<TraceEvent>& a, const std::vector<TraceEvent>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(TraceEvent)) == 0;
}

constexpr std::size_t kHeaderBytes = sizeof(TraceFileHeader);
static_assert(kHeaderBytes == 168 && sizeof(TraceModule) == 256, "trace file layout changed");

}  // namespace

TEST_CASE("a trace file round trip keeps everything", "[localize][file]") {
  TempFile file("round_trip.cstrace");
  Trace trace = sample_trace();
  REQUIRE(write_trace_file(file.path, trace));
  CHECK(bytes_of(file.path).size() ==
        kHeaderBytes + 2 * sizeof(TraceModule) + 5 * sizeof(TraceEvent));

  Expected<Trace> back = read_trace_file(file.path);
  REQUIRE(back.has_value());
  CHECK(back.error().empty());
  CHECK(back->handle == trace.handle);
  CHECK(back->schedule_hash == trace.schedule_hash);
  CHECK(back->truncated);
  REQUIRE(back->modules.size() == 2);
  CHECK(back->modules[1].path == "/lib/x86_64-linux-gnu/libc.so.6");
  CHECK(back->modules[1].bias == 0x7ffff7c00000);
  CHECK(back->modules[1].size == 0x1e0000);
  CHECK(same_events(back->events, trace.events));
}

TEST_CASE("a version 1 trace file is read with values unknown", "[localize][file]") {
  TempFile file("v1.cstrace");
  Trace trace = sample_trace();
  REQUIRE(write_trace_file(file.path, trace));
  std::vector<char> v2 = bytes_of(file.path);
  // Rewrite as version 1: same header and modules, 24-byte events without the value.
  std::size_t events_at = kHeaderBytes + 2 * sizeof(TraceModule);
  std::vector<char> v1(v2.begin(), v2.begin() + static_cast<std::ptrdiff_t>(events_at));
  std::uint32_t version = 1;
  std::memcpy(v1.data() + offsetof(TraceFileHeader, version), &version, sizeof version);
  for (const TraceEvent& e : trace.events) {
    TraceEventV1 old{e.kind, e.size, e.aux, e.thread, e.address, e.site};
    const char* p = reinterpret_cast<const char*>(&old);
    v1.insert(v1.end(), p, p + sizeof old);
  }
  put_bytes(file.path, v1);

  Expected<Trace> back = read_trace_file(file.path);
  REQUIRE(back);
  CHECK_FALSE(back->has_values);
  REQUIRE(back->events.size() == trace.events.size());
  CHECK(back->events[2].address == 0x5555555580a0);
  CHECK(back->events[2].size == 8);
  CHECK(back->events[2].value == 0);
  REQUIRE(write_trace_file(file.path, trace));
  Expected<Trace> again = read_trace_file(file.path);
  REQUIRE(again);
  CHECK(again->has_values);
  CHECK(again->events[2].value == 0x1122334455667788);
}

TEST_CASE("an empty trace round-trips", "[localize][file]") {
  TempFile file("empty.cstrace");
  REQUIRE(write_trace_file(file.path, Trace{}));
  Expected<Trace> back = read_trace_file(file.path);
  REQUIRE(back);
  CHECK(back->events.empty());
  CHECK(back->modules.empty());
  CHECK_FALSE(back->truncated);
}

TEST_CASE("strings longer than their fields are truncated", "[localize][file]") {
  TempFile file("long.cstrace");
  Trace trace;
  trace.handle = std::string(300, 'h');
  trace.modules = {{std::string(400, 'm'), 1, 2}};
  REQUIRE(write_trace_file(file.path, trace));
  Expected<Trace> back = read_trace_file(file.path);
  REQUIRE(back);
  CHECK(back->handle == std::string(127, 'h'));
  CHECK(back->modules[0].path == std::string(239, 'm'));
}

TEST_CASE("damaged trace files are refused with a one-line reason", "[localize][file]") {
  TempFile file("damaged.cstrace");
  REQUIRE(write_trace_file(file.path, sample_trace()));
  std::vector<char> good = bytes_of(file.path);
  std::vector<char> bytes = good;
  auto expect_error = [&](const std::string& what) {
    put_bytes(file.path, bytes);
    Expected<Trace> result = read_trace_file(file.path);
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error() == file.path + ": " + what);
    CHECK(result.error().find('\n') == std::string::npos);
  };

  SECTION("missing file") {
    Expected<Trace> result = read_trace_file(file.path + ".missing");
    REQUIRE_FALSE(result);
    CHECK(result.error() == file.path + ".missing: cannot open: No such file or directory");
  }
  SECTION("a directory") {
    std::string dir = std::filesystem::temp_directory_path().string();
    Expected<Trace> result = read_trace_file(dir);
    REQUIRE_FALSE(result);
    CHECK(result.error().rfind(dir + ": ", 0) == 0);
    CHECK(result.error().find('\n') == std::string::npos);
  }
  SECTION("empty file") {
    bytes.clear();
    expect_error("short file: 0 bytes, the header needs " + std::to_string(kHeaderBytes));
  }
  SECTION("shorter than the header") {
    bytes.resize(100);
    expect_error("short file: 100 bytes, the header needs " + std::to_string(kHeaderBytes));
  }
  SECTION("bad magic") {
    bytes[0] = 'X';
    expect_error("bad magic (not a ctrlsched trace file)");
  }
  SECTION("bad version") {
    std::uint32_t version = 7;
    std::memcpy(bytes.data() + offsetof(TraceFileHeader, version), &version, sizeof version);
    expect_error("unsupported trace format version 7 (this build reads 1 and 2)");
  }
  SECTION("absurd module count") {
    std::uint32_t count = 1'000'000;
    std::memcpy(bytes.data() + offsetof(TraceFileHeader, module_count), &count, sizeof count);
    expect_error("module count 1000000 out of range");
  }
  SECTION("cut inside the module table") {
    bytes.resize(kHeaderBytes + sizeof(TraceModule) + 10);
    expect_error("short file: " + std::to_string(bytes.size()) + " bytes, the header and 2 modules need " +
                 std::to_string(kHeaderBytes + 2 * sizeof(TraceModule)));
  }
  SECTION("one event missing") {
    bytes.resize(bytes.size() - sizeof(TraceEvent));
    expect_error("event count mismatch: header says 5 events, the file holds 4");
  }
  SECTION("a partial event") {
    bytes.resize(bytes.size() - 5);
    expect_error("event count mismatch: header says 5 events, the file holds 4 and a partial one");
  }
  SECTION("an extra event") {
    bytes.insert(bytes.end(), sizeof(TraceEvent), '\0');
    expect_error("event count mismatch: header says 5 events, the file holds 6");
  }
  SECTION("a count that would overflow") {
    std::uint64_t count = ~std::uint64_t{0};
    std::memcpy(bytes.data() + offsetof(TraceFileHeader, event_count), &count, sizeof count);
    expect_error("event count mismatch: header says 18446744073709551615 events, the file holds 5");
  }
  SECTION("an unknown event kind") {
    std::size_t event3 = kHeaderBytes + 2 * sizeof(TraceModule) + 3 * sizeof(TraceEvent);
    bytes[event3] = 99;
    expect_error("event 3: unknown kind 99");
  }
  SECTION("an out-of-range thread id") {
    std::size_t event2 = kHeaderBytes + 2 * sizeof(TraceModule) + 2 * sizeof(TraceEvent);
    std::uint32_t thread = 1u << 20;
    std::memcpy(bytes.data() + event2 + offsetof(TraceEvent, thread), &thread, sizeof thread);
    expect_error("event 2: thread id 1048576 out of range");
  }
  SECTION("an out-of-range created thread") {
    std::size_t event0 = kHeaderBytes + 2 * sizeof(TraceModule);
    std::uint64_t child = std::uint64_t{1} << 40;
    std::memcpy(bytes.data() + event0 + offsetof(TraceEvent, address), &child, sizeof child);
    expect_error("event 0: thread id 1099511627776 out of range");
  }
}

TEST_CASE("writing to an impossible path reports it", "[localize][file]") {
  Expected<void> result = write_trace_file("/nonexistent-dir/x.cstrace", Trace{});
  REQUIRE_FALSE(result);
  CHECK(result.error() == "/nonexistent-dir/x.cstrace: cannot create: No such file or directory");
}

TEST_CASE("from_region copies the events the region holds", "[localize][file]") {
  // A region as the shim leaves it: header, then events.
  std::vector<std::uint64_t> storage((sizeof(TraceRegionHeader) + 4 * sizeof(TraceEvent)) / 8);
  auto* header = reinterpret_cast<TraceRegionHeader*>(storage.data());
  auto* events = reinterpret_cast<TraceEvent*>(header + 1);
  header->capacity_events = 4;
  header->event_count = 3;
  for (std::uint32_t i = 0; i < 4; ++i)
    events[i] = TraceEvent{static_cast<std::uint8_t>(EventKind::Read), 4, 0, i, 0x1000 + i, 0};

  ModuleTable modules{};
  modules.count = 1;
  std::strcpy(modules.modules[0].path, "/bin/t");
  modules.modules[0].bias = 0x400000;
  modules.modules[0].size = 0x1000;

  SECTION("from the header and the mapped events") {
    Trace trace = from_region(header, std::span<const TraceEvent>(events, 4), modules, "1:random", 42);
    CHECK(trace.handle == "1:random");
    CHECK(trace.schedule_hash == 42);
    CHECK_FALSE(trace.truncated);
    REQUIRE(trace.events.size() == 3);
    CHECK(trace.events[2].thread == 2);
    REQUIRE(trace.modules.size() == 1);
    CHECK(trace.modules[0].path == "/bin/t");
    CHECK(trace.modules[0].bias == 0x400000);
  }
  SECTION("from the whole region") {
    Trace trace = from_region(storage.data(), storage.size() * 8, modules, "h", 1);
    CHECK(trace.events.size() == 3);
    CHECK_FALSE(trace.truncated);
  }
  SECTION("the shim's truncation flag is kept") {
    header->truncated = 1;
    CHECK(from_region(storage.data(), storage.size() * 8, modules, "h", 1).truncated);
  }
  SECTION("a count beyond the mapping is clamped and marks the trace truncated") {
    header->event_count = 1000;
    Trace trace = from_region(storage.data(), storage.size() * 8, modules, "h", 1);
    CHECK(trace.events.size() == 4);
    CHECK(trace.truncated);
  }
  SECTION("a region smaller than its header gives an empty trace") {
    Trace trace = from_region(storage.data(), 8, modules, "h", 1);
    CHECK(trace.events.empty());
    CHECK(trace.modules.size() == 1);
  }
}

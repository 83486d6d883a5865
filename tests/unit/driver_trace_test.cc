// `ctrlsched trace`: its command line (run and --dump forms), the output paths, the summary, and
// the libdw symbolizer behind the dump, which must name global variables (checked on this test
// binary's own globals).
#include <catch2/catch.hpp>

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ctrlsched/localize/dump.h"
#include "driver_test_support.h"
#include "exit_codes.h"
#include "localize_trace_builder.h"
#include "modes/trace.h"
#include "options/command_line.h"
#include "report/symbolizer.h"
#include "runs/child_launch.h"

using namespace ctrlsched::driver;
using ctrlsched::EventKind;
using ctrlsched::driver::testing::parse;
using ctrlsched::driver::testing::usage;
using ctrlsched::localize::testing::TraceBuilder;

// Globals the symbolizer must find by address (not static: they must stay in the symbol table
// under these names whatever the optimization level).
std::uint64_t trace_test_table[4];
namespace trace_test_ns {
int counter;
}
__attribute__((noinline)) int trace_test_function(int x) { return x * 3 + trace_test_ns::counter; }

namespace {

// The load bias of the main executable (the first object dl_iterate_phdr reports).
std::uint64_t executable_bias() {
  std::uint64_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        *static_cast<std::uint64_t*>(out) = info->dlpi_addr;
        return 1;  // stop after the first
      },
      &bias);
  return bias;
}

std::string self_path() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::uint64_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST_CASE("trace takes replay's three forms plus the dump options") {
  const CommandLine a = parse({"trace", "--seed", "3", "--shared-only", "--no-stacks", "--funcs", "--clocks",
                               "--output", "o.cstrace", "./t", "x"});
  CHECK(a.mode == Mode::Trace);
  CHECK(*a.options.seed == 3);
  CHECK(a.target == "./t");
  CHECK(a.args == std::vector<std::string>{"x"});
  CHECK(*a.options.output == "o.cstrace");
  const ctrlsched::localize::DumpOptions dump = dump_options_from(a.options);
  CHECK(dump.only_shared);
  CHECK_FALSE(dump.stacks);
  CHECK(dump.func_events);
  CHECK(dump.vector_clocks);

  const CommandLine b = parse({"trace", "17:pct:d3:k412@9f3a2b1c0d4e5f67", "--timeout", "5", "./t"});
  CHECK(b.mode == Mode::Trace);
  REQUIRE(b.handle.has_value());
  CHECK(*b.handle == "17:pct:d3:k412@9f3a2b1c0d4e5f67");
  const ctrlsched::localize::DumpOptions defaults = dump_options_from(b.options);
  CHECK_FALSE(defaults.only_shared);
  CHECK(defaults.stacks);
  CHECK_FALSE(defaults.func_events);
  CHECK_FALSE(defaults.vector_clocks);

  const CommandLine c = parse({"trace", "--schedule", "s.sched", "--save-schedule", "t.sched", "./t"});
  CHECK(*c.options.schedule == "s.sched");
}

TEST_CASE("trace --dump needs no test program and takes only the dump options") {
  const CommandLine d = parse({"trace", "--dump", "t.cstrace", "--funcs", "--output", "t.txt"});
  CHECK(d.mode == Mode::Trace);
  CHECK(*d.options.dump == "t.cstrace");
  CHECK(d.target.empty());
  CHECK(usage({"trace", "--dump", "t.cstrace", "./t"}) ==
        "--dump renders a trace file and runs nothing: give no handle or test program ('./t')");
  CHECK(usage({"trace", "1:pct:d3:k4", "--dump", "t.cstrace"}).find("give no handle") != std::string::npos);
  CHECK(usage({"trace", "--dump", "t.cstrace", "--seed", "1"}) ==
        "--seed cannot be combined with --dump (it renders a trace file and runs nothing)");
  CHECK(usage({"trace", "--dump", "t.cstrace", "--quiet"}).starts_with("--quiet cannot be combined with --dump"));
}

TEST_CASE("trace misuse is a usage error, like replay's") {
  CHECK(usage({"trace", "./t"}) ==
        "trace needs a handle, --seed S or --schedule FILE before the test program (or --dump FILE) ('./t' is "
        "not a handle)");
  CHECK(usage({"trace", "--seed", "1", "-j", "2", "./t"}) == "--jobs cannot be used with 'ctrlsched trace'");
  CHECK(usage({"trace", "--seed", "1", "--schedule", "f", "./t"}) == "give only one of --seed and --schedule");
  CHECK(usage({"trace", "1:pct:d3:k4", "--depth", "2", "./t"}) ==
        "--depth cannot be combined with a handle: it already fixes the run");
  CHECK(usage({"--shared-only", "./t"}) == "--shared-only is only valid with 'ctrlsched trace'");
  CHECK(usage({"replay", "--seed", "1", "--output", "x", "./t"}) == "--output is only valid with 'ctrlsched trace'");
  CHECK(usage({"replay", "--seed", "1", "--dump", "x", "./t"}) == "--dump is only valid with 'ctrlsched trace'");
}

TEST_CASE("only a traced run's child gets a descriptor in CTRLSCHED_TRACE_FD") {
  const char* parent[] = {"PATH=/bin", nullptr};
  const auto traced = child_environment(parent, "/lib/shim.so", 7, 9);
  CHECK(std::find(traced.begin(), traced.end(), "CTRLSCHED_TRACE_FD=9") != traced.end());
  CHECK(std::find(traced.begin(), traced.end(), "CTRLSCHED_RECORD_FD=7") != traced.end());
  const auto plain = child_environment(parent, "/lib/shim.so", 7);
  // Not traced: a placeholder as long as the fixed descriptor's number, so the environment (and
  // the initial stack) is the same size in both.
  CHECK(std::find(plain.begin(), plain.end(), "CTRLSCHED_TRACE_FD=none") != plain.end());
  CHECK(std::string("none").size() == std::string("1022").size());  // child_launch.cc's kChildTraceFd
}

TEST_CASE("trace files are named after the seed, their dumps after the file") {
  CHECK(default_trace_path(17, 0x9f3a2b1c0d4e5f67) == "trace-17.cstrace");
  CHECK(default_trace_path(std::nullopt, 0x9f3a2b1c0d4e5f67) == "trace-9f3a2b1c0d4e5f67.cstrace");
  CHECK(dump_path_for("out/t.cstrace") == "out/t.cstrace.txt");
}

TEST_CASE("outputs are checked before the run") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ctrlsched-trace-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  CHECK(output_problem((dir / "new.cstrace").string()).empty());
  CHECK(output_problem(dir.string()) == "it is a directory");
  CHECK(output_problem((dir / "missing" / "t.cstrace").string()) == "no directory " + (dir / "missing").string());
  std::ofstream((dir / "existing.cstrace").string()) << "x";
  CHECK(output_problem((dir / "existing.cstrace").string()).empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("the summary counts events, threads, accesses and shared locations") {
  TraceBuilder b;
  b.spawn(2);
  b.write(1, 0x1000);
  b.read(2, 0x1000);
  b.write(2, 0x2000);
  b.atomic_rmw(1, 0);  // a fence: no location, not an access
  b.switch_to(2, 0);
  const TraceSummary s = summarize_trace(b.trace());
  CHECK(s.events == 9);
  CHECK(s.threads == 3);
  CHECK(s.accesses == 3);
  CHECK(s.shared_locations == 1);
  CHECK_FALSE(s.truncated);
  CHECK(render_trace_summary(s, "t.cstrace", "t.cstrace.txt") ==
        "trace: 9 events · 3 threads · 3 accesses · 1 shared location · complete\n"
        "wrote t.cstrace and t.cstrace.txt\n");

  TraceSummary sync_only;
  sync_only.events = 1;
  sync_only.threads = 1;
  sync_only.truncated = true;
  const std::string text = render_trace_summary(sync_only, "a", "a.txt");
  CHECK(text.starts_with("trace: 1 event · 1 thread · 0 accesses · 0 shared locations · TRUNCATED"));
  CHECK(text.find("build the test instrumented") != std::string::npos);
}

TEST_CASE("the libdw symbolizer names global variables and functions by module offset") {
  const std::string exe = self_path();
  const std::uint64_t bias = executable_bias();
  Symbolizer symbolizer;
  CHECK(symbolizer.data_symbol(exe, address_of(&trace_test_table[0]) - bias) == "trace_test_table");
  CHECK(symbolizer.data_symbol(exe, address_of(&trace_test_table[2]) - bias) == "trace_test_table+16");
  CHECK(symbolizer.data_symbol(exe, address_of(&trace_test_ns::counter) - bias) == "trace_test_ns::counter");
  // Code is not data; unknown modules know nothing.
  CHECK(symbolizer.data_symbol(exe, address_of(reinterpret_cast<const void*>(&trace_test_function)) - bias).empty());
  CHECK(symbolizer.data_symbol("/no/such/module", 0x1000).empty());
  const SourceLocation where =
      symbolizer.symbolize(exe, address_of(reinterpret_cast<const void*>(&trace_test_function)) - bias);
  CHECK(where.function.find("trace_test_function") != std::string::npos);
  CHECK(trace_test_function(1) == 3);
}

TEST_CASE("a dump through the libdw symbolizer shows variable and function names") {
  const std::string exe = self_path();
  const std::uint64_t bias = executable_bias();
  const std::uint64_t data = address_of(&trace_test_ns::counter);
  // Sites are return addresses: the dump looks up offset - 1, so point one past the function's
  // first byte to land on it.
  const std::uint64_t site_offset = address_of(reinterpret_cast<const void*>(&trace_test_function)) - bias + 1;
  TraceBuilder b;
  b.spawn(1);
  b.write(1, data, ctrlsched::localize::make_site(0, site_offset));
  ctrlsched::localize::Trace trace = b.trace();
  trace.modules.push_back({exe, bias, data - bias + 4096});
  Symbolizer symbolizer;
  DumpSymbolizer names(symbolizer);
  std::ostringstream out;
  ctrlsched::localize::render_dump(trace, names, out);
  INFO(out.str());
  CHECK(out.str().find("trace_test_ns::counter") != std::string::npos);
  CHECK(out.str().find("trace_test_function") != std::string::npos);
}

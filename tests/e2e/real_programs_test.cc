// Real multi-threaded programs from Debian under ctrlsched: `zstd -T2` and `xz -T2` compress a
// generated 1 MB file for a few seeds each (replay --seed, whose stdout is the test's own), and
// the compressed bytes must equal the native run's, byte for byte. Each tool that is not
// installed is skipped with a message (.ci/install-deps installs them).
// Not `sort --parallel=2`: it sizes its thread pool by the CPUs it may run on, and ctrlsched pins
// each test process to one CPU, so under ctrlsched it runs single-threaded.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "e2e.h"

using namespace e2e;

namespace {

// Finds `name` in PATH; "" when missing.
std::string find_tool(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

// 1 MB of text lines from a fixed xorshift sequence: compressible, but not trivially, and the
// same bytes on every machine.
void write_input(const fs::path& path, std::size_t bytes) {
  static const char* const words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
                                      "hotel", "india", "juliet", "kilo", "lima", "mike", "november"};
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  std::string text;
  while (text.size() < bytes) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    text += words[state % 14];
    text += (state >> 32) % 7 == 0 ? '\n' : ' ';
    if ((state >> 40) % 11 == 0) text += std::to_string(state % 100000);
  }
  text.resize(bytes);
  std::ofstream(path, std::ios::binary) << text;
}

// Runs the tool natively and under ctrlsched for `seeds` seeds, comparing stdout byte for byte.
void check_identical(const std::string& tool, std::vector<std::string> args, int seeds) {
  const std::string path = find_tool(tool);
  if (path.empty()) {
    WARN("skipped: " << tool << " is not installed (apt-get install " << tool << ")");
    return;
  }
  TempDir dir;
  const fs::path input = dir / "input.txt";
  write_input(input, 1 << 20);
  args.push_back(input.string());
  std::vector<std::string> native_argv = {path};
  native_argv.insert(native_argv.end(), args.begin(), args.end());
  const Process native = run(native_argv, 120);
  INFO(native.describe(200));
  REQUIRE(native.exit_code == 0);
  REQUIRE(native.out.size() > 1000);
  for (int seed = 0; seed < seeds; ++seed) {
    std::vector<std::string> how = {"--seed", std::to_string(seed), "--timeout", "60"};
    const Process under = run_replay(dir, how, path, args, 180);
    INFO(tool << " seed " << seed << "\n" << under.describe(200));
    CHECK(under.exit_code == 0);
    // The replay prints one header line, then the test's output, then its own summary lines.
    const std::size_t start = under.out.find('\n') + 1;
    REQUIRE(under.out.size() >= start + native.out.size());
    CHECK(under.out.compare(start, native.out.size(), native.out) == 0);
  }
  // And as seeds: every seed passes.
  const SeedsRun r = run_seeds(dir, path, {"--seeds", std::to_string(seeds), "-j2", "--timeout", "60"}, args, 300);
  INFO(r.describe());
  REQUIRE(r.json.is_object());
  CHECK(r.process.exit_code == 0);
  CHECK(r.json["outcomes"]["pass"] == seeds);
}

}  // namespace

TEST_CASE("zstd -T2 under ctrlsched compresses byte-identically to the native run", "[real_programs]") {
  check_identical("zstd", {"-T2", "-3", "-c"}, 3);
}

TEST_CASE("xz -T2 under ctrlsched compresses byte-identically to the native run", "[real_programs]") {
  // A small block size so the 1 MB input is split into blocks the two threads share.
  check_identical("xz", {"-T2", "--block-size=262144", "-c"}, 3);
}

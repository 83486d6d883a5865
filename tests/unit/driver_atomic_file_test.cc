// Report and schedule files appear whole or not at all (runs/atomic_file.h).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "runs/atomic_file.h"

using namespace ctrlsched::driver;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("ctrlsched-atomic-" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a file is replaced whole, and no temporary file is left") {
  ScratchDir dir;
  const fs::path file = dir.path / "report.json";
  CHECK(write_file_atomically(file, "old\n").empty());
  CHECK(slurp(file) == "old\n");
  CHECK(write_file_atomically(file, "new and longer\n").empty());
  CHECK(slurp(file) == "new and longer\n");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("a writer that fails leaves the old file and no temporary file") {
  ScratchDir dir;
  const fs::path file = dir.path / "report.json";
  CHECK(write_file_atomically(file, "complete\n").empty());
  const std::string problem = replace_file_atomically(file, [](const fs::path& temporary) {
    std::ofstream(temporary) << "half";
    return std::string("disk full");
  });
  CHECK(problem == "disk full");
  CHECK(slurp(file) == "complete\n");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("writability is checked without creating the file") {
  ScratchDir dir;
  CHECK(check_writable(dir.path / "report.json").empty());
  CHECK(entries(dir.path) == 0);
  CHECK_FALSE(check_writable(dir.path / "missing" / "report.json").empty());
  CHECK(check_writable(dir.path) == dir.path.string() + " is a directory");
  CHECK_FALSE(write_file_atomically(dir.path / "missing" / "report.json", "x").empty());
  CHECK(entries(dir.path) == 0);
}

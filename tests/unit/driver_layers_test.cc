// The driver's folders depend on each other one way only (docs/architecture.md, "The driver"):
//
//   cli → options, modes → store → localize → report → runs → (policy core, shared formats)
//
// A folder may include its own files and those of the folders it may call; exit_codes.h (the
// command's exit codes and error type) is open to all. An include that runs the other way is a
// sign the file does two things; this test names the file and the include so it can be split.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kDriver = fs::path(CTRLSCHED_SOURCE_DIR) / "scheduler" / "driver";

// Which driver folders each folder may include (besides itself).
const std::map<std::string, std::set<std::string>> kMayInclude = {
    {"cli", {"options", "modes", "runs"}},
    {"options", {}},
    {"modes", {"options", "store", "localize", "report", "runs"}},
    {"store", {"localize", "report", "runs"}},
    {"localize", {"report", "runs"}},
    {"report", {"runs"}},
    {"runs", {}},
};

// Files allowed at the top of scheduler/driver, outside the folders.
const std::set<std::string> kTopLevelFiles = {"CMakeLists.txt", "exit_codes.h"};

// The file of each folder whose header comment says what the folder owns and may call.
const std::map<std::string, std::string> kFolderHeader = {
    {"cli", "main.cc"},         {"options", "command_line.h"}, {"modes", "modes.h"},
    {"localize", "localization.h"}, {"report", "report.h"},        {"runs", "seeds_loop.h"},
    {"store", "run_store.h"},
};

std::vector<std::string> project_includes(const fs::path& file) {
  std::vector<std::string> includes;
  std::ifstream in(file);
  const std::string prefix = "#include \"";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto end = line.find('"', prefix.size());
    if (end != std::string::npos) includes.push_back(line.substr(prefix.size(), end - prefix.size()));
  }
  return includes;
}

}  // namespace

TEST_CASE("every driver file lives in one of the driver's folders") {
  REQUIRE(fs::is_directory(kDriver));
  for (const fs::directory_entry& entry : fs::directory_iterator(kDriver)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory()) {
      INFO("scheduler/driver/" << name << "/ is not a known folder: add it to the layering in "
                                          "docs/architecture.md and to this test");
      CHECK(kMayInclude.count(name) == 1);
    } else {
      INFO("scheduler/driver/" << name << " belongs in one of the folders");
      CHECK(kTopLevelFiles.count(name) == 1);
    }
  }
}

TEST_CASE("driver includes run one way: cli, options, modes, localize, report, runs") {
  for (const auto& [folder, allowed] : kMayInclude) {
    for (const fs::directory_entry& entry : fs::directory_iterator(kDriver / folder)) {
      for (const std::string& include : project_includes(entry.path())) {
        const auto slash = include.find('/');
        if (slash == std::string::npos) {
          INFO(folder << "/" << entry.path().filename().string() << " includes \"" << include
                      << "\" without its folder");
          CHECK(include == "exit_codes.h");
          continue;
        }
        const std::string target = include.substr(0, slash);
        if (target == folder || kMayInclude.count(target) == 0) continue;  // own folder, or not the driver's
        INFO(folder << "/" << entry.path().filename().string() << " includes " << include << ": " << folder
                    << "/ may not call " << target << "/");
        CHECK(allowed.count(target) == 1);
      }
    }
  }
}

TEST_CASE("each driver folder says what it owns and what it may call") {
  for (const auto& [folder, file] : kFolderHeader) {
    std::ifstream in(kDriver / folder / file);
    REQUIRE(in.good());
    std::string first_line;
    std::getline(in, first_line);
    INFO(folder << "/" << file << " must open with \"// " << folder << "/ — ...\"");
    CHECK(first_line.rfind("// " + folder + "/ — ", 0) == 0);
    std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(rest.find("Owns:") != std::string::npos);
    CHECK(rest.find("May call:") != std::string::npos);
  }
}

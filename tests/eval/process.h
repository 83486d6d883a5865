// Small process and file helpers of ctrlsched_evaluate: run a shell command, read a file or a
// JSON report back. Header-only, shared by the example and the corpus evaluations.
#pragma once

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

namespace ctrlsched::eval {

inline std::string shell_quoted(const std::string& s) { return "'" + s + "'"; }

inline int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::optional<nlohmann::json> read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace ctrlsched::eval

// Saving, finding and loading schedule files (see schedule_store.h).
#include "runs/schedule_store.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "ctrlsched/run_spec.h"
#include "exit_codes.h"
#include "runs/atomic_file.h"

namespace ctrlsched::driver {
namespace fs = std::filesystem;

std::string schedule_file_name(std::uint64_t seed, std::uint64_t hash) {
  return "seed-" + std::to_string(seed) + "-" + format_hash(hash) + ".sched";
}

std::string ScheduleStore::prepare() const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return "cannot create the schedule directory " + dir_.string() + ": " + ec.message();
  return {};
}

std::string ScheduleStore::save(std::uint64_t seed, const Schedule& schedule) const {
  return write_schedule_file(dir_ / schedule_file_name(seed, schedule.hash), schedule);
}

std::optional<fs::path> ScheduleStore::find(std::uint64_t hash) const {
  const std::string suffix = "-" + format_hash(hash) + ".sched";
  std::error_code ec;
  std::vector<fs::path> matches;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("seed-") && name.ends_with(suffix)) matches.push_back(it->path());
  }
  if (matches.empty()) return std::nullopt;
  std::sort(matches.begin(), matches.end());
  return matches.front();
}

std::string write_schedule_file(const fs::path& path, const Schedule& schedule) {
  return write_file_atomically(path, to_text(schedule));
}

Schedule load_schedule_file(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw DriverError(ExitCode::BadSchedule, path.string() + " is a directory, not a schedule file");
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    throw DriverError(ExitCode::BadSchedule, path.string() + " is not a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DriverError(ExitCode::BadSchedule, "cannot read schedule file " + path.string() + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw DriverError(ExitCode::BadSchedule, "cannot read schedule file " + path.string());
  std::string error;
  std::optional<Schedule> schedule = parse_schedule(text.str(), &error);
  if (!schedule) throw DriverError(ExitCode::BadSchedule, "bad schedule file " + path.string() + ": " + error);
  return std::move(*schedule);
}

}  // namespace ctrlsched::driver

// Schedule files on disk: the save directory of failing seeds (seed-<S>-<hash>.sched), lookup by
// schedule hash for replay verification, and loading a user-given file.
//
// Saving is best effort (a read-only directory must not turn a bug report into a crash); loading
// a file the user named is strict (exit code 5 with the reason).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "ctrlsched/schedule.h"

namespace ctrlsched::driver {

// "seed-17-9f3a2b1c0d4e5f67.sched"
std::string schedule_file_name(std::uint64_t seed, std::uint64_t hash);

class ScheduleStore {
 public:
  explicit ScheduleStore(std::filesystem::path dir) : dir_(std::move(dir)) {}
  const std::filesystem::path& dir() const { return dir_; }

  // Creates the directory. Returns "" or a one-line warning (saving is then pointless).
  std::string prepare() const;
  // Writes the schedule as seed-<S>-<hash>.sched. Returns "" or a one-line warning.
  std::string save(std::uint64_t seed, const Schedule& schedule) const;
  // A saved file for this hash (the first in name order), if any.
  std::optional<std::filesystem::path> find(std::uint64_t hash) const;

 private:
  std::filesystem::path dir_;
};

// Writes `schedule` to `path` via a temporary file and rename. Returns "" or the reason it failed.
std::string write_schedule_file(const std::filesystem::path& path, const Schedule& schedule);

// Reads and parses a schedule file; throws DriverError(BadSchedule) with the path and reason.
Schedule load_schedule_file(const std::filesystem::path& path);

}  // namespace ctrlsched::driver

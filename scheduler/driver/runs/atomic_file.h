// Files the driver writes for the user (the --json report, schedule files, trace files and
// dumps) appear whole or not at all: they are written to a temporary file beside the target and
// renamed over it. A driver killed at any moment (SIGKILL, a second Ctrl-C, a full disk) leaves
// either no file or the previous complete one, never an empty or half-written file.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace ctrlsched::driver {

// "<path>.tmp.<pid>": the name the content is written under before the rename.
std::filesystem::path temporary_path_for(const std::filesystem::path& path);

// Writes `content` to `path` atomically. Returns "" or a one-line reason it failed (the target is
// then untouched and no temporary file is left).
std::string write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Lets `write` create the file under its temporary name (it returns "" or a reason), then renames
// it over `path`. Same guarantees as write_file_atomically.
std::string replace_file_atomically(const std::filesystem::path& path,
                                    const std::function<std::string(const std::filesystem::path&)>& write);

// Whether `path` could be written later, checked now without touching it: creates and removes a
// temporary file beside it. Returns "" or a one-line reason.
std::string check_writable(const std::filesystem::path& path);

}  // namespace ctrlsched::driver

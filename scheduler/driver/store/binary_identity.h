// Which build of a test binary a stored run belongs to (docs/store.md, "Generations").
#pragma once

#include <cstdint>
#include <string>

namespace ctrlsched::driver {

struct BinaryIdentity {
  std::string path;      // as resolved for the run (absolute)
  std::string build_id;  // the ELF NT_GNU_BUILD_ID note in hex, "" when the binary has none
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  // The generation key: "build-id:<hex>" when there is a build id (a rebuild with the same
  // content keeps it), else "file:<path>:<size>:<mtime_ns>".
  std::string key() const;
};

// Throws DriverError(CannotRun) when the file cannot be read.
BinaryIdentity identify_binary(const std::string& path);

}  // namespace ctrlsched::driver
